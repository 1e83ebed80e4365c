package redact

import "net/url"

// URLSecrets are the credentials in rawURL's userinfo, to be Marker
// wherever the URL is quoted whole (an error, a log line).
func URLSecrets(rawURL string) []string {
	u, err := url.Parse(rawURL)
	if err != nil || u.User == nil {
		return nil
	}
	out := []string{u.User.Username()}
	if p, ok := u.User.Password(); ok {
		out = append(out, p)
	}
	return out
}
