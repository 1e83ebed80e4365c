package policies

import (
	"net/url"
	"slices"
	"strings"
)

// ProviderInURL returns the provider a URL's path names, and true, when it
// names exactly one of the registered wire formats: /webhooks/stripe,
// /api/github-events, /hooks/shopify_orders. A word is a run of letters and
// digits (a name with a hyphen, standard-webhooks or discord-events, is
// matched whole, and then its parts are not counted apart). The host is not
// read: a handler at stripe.example.test may well serve another provider.
func ProviderInURL(rawURL string) (string, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", false
	}
	path := strings.ToLower(u.Path)
	isWord := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	// named says name appears in path as a whole word (or words).
	named := func(name string) bool {
		for i := 0; ; {
			j := strings.Index(path[i:], name)
			if j < 0 {
				return false
			}
			j += i
			end := j + len(name)
			if (j == 0 || !isWord(path[j-1])) && (end == len(path) || !isWord(path[end])) {
				return true
			}
			i = j + 1
		}
	}
	var found []string
	for _, n := range WireNames() {
		if named(n) {
			found = append(found, n)
		}
	}
	// discord-events names discord too: keep the longer name.
	found = slices.DeleteFunc(found, func(n string) bool {
		for _, m := range found {
			if m != n && strings.Contains(m, n) {
				return true
			}
		}
		return false
	})
	if len(found) != 1 {
		return "", false
	}
	return found[0], true
}
