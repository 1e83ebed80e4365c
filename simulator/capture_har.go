package simulator

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// harFile is the part of a HAR 1.2 file (HTTP Archive, as browsers' network
// panels, Charles, Fiddler, mitmproxy and Proxyman export it) that a
// delivery needs.
type harFile struct {
	Log struct {
		Entries []struct {
			Request harRequest `json:"request"`
		} `json:"entries"`
	} `json:"log"`
}

type harRequest struct {
	Method   string    `json:"method"`
	URL      string    `json:"url"`
	Headers  []harPair `json:"headers"`
	PostData *struct {
		MimeType string    `json:"mimeType"`
		Text     string    `json:"text"`
		Encoding string    `json:"encoding"` // "base64": not in HAR 1.2, but some tools write it
		Params   []harPair `json:"params"`
	} `json:"postData"`
}

type harPair struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// ParseHAR reads one request of a HAR file. entry picks it, from 1; 0 picks
// the only entry, or the only POST entry, and with several it is an error
// listing them so the user can choose.
func ParseHAR(data []byte, entry int) (Capture, error) {
	if len(data) > maxCapture {
		return Capture{}, fmt.Errorf("%w: larger than %d MiB", ErrCapture, maxCapture>>20)
	}
	var f harFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Capture{}, fmt.Errorf("%w: not a HAR file: %w", ErrCapture, err)
	}
	entries := f.Log.Entries
	if len(entries) == 0 {
		return Capture{}, fmt.Errorf("%w: the HAR file has no entries (log.entries)", ErrCapture)
	}
	var req *harRequest
	switch {
	case entry < 0 || entry > len(entries):
		return Capture{}, fmt.Errorf("%w: entry %d does not exist: the HAR file has %d entries (1..%d)", ErrCapture, entry, len(entries), len(entries))
	case entry > 0:
		req = &entries[entry-1].Request
	case len(entries) == 1:
		req = &entries[0].Request
	default:
		var posts []int
		for i := range entries {
			if strings.EqualFold(entries[i].Request.Method, http.MethodPost) {
				posts = append(posts, i)
			}
		}
		if len(posts) != 1 {
			var list []string
			for i := range entries[:min(len(entries), 10)] {
				list = append(list, fmt.Sprintf("%d: %s %s", i+1, truncate(entries[i].Request.Method, 10), truncate(entries[i].Request.URL, 80)))
			}
			if len(entries) > 10 {
				list = append(list, fmt.Sprintf("… and %d more", len(entries)-10))
			}
			return Capture{}, fmt.Errorf("%w: the HAR file has %d entries and %d POST requests; choose one with --entry N:\n  %s", ErrCapture, len(entries), len(posts), strings.Join(list, "\n  "))
		}
		req = &entries[posts[0]].Request
	}
	return harCapture(req)
}

func harCapture(req *harRequest) (Capture, error) {
	c := Capture{Method: strings.ToUpper(req.Method), Header: http.Header{}, Format: FormatHAR}
	if !validMethod(c.Method) {
		return Capture{}, fmt.Errorf("%w: method %q is not valid", ErrCapture, truncate(req.Method, 20))
	}
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Capture{}, fmt.Errorf("%w: url %q is not an http(s) URL", ErrCapture, truncate(req.URL, 80))
	}
	u.RawQuery = cleanQuery(u.RawQuery)
	c.URL = u.String()
	for _, h := range req.Headers {
		if err := addHeader(c.Header, h.Name, h.Value); err != nil {
			return Capture{}, err
		}
	}
	if pd := req.PostData; pd != nil {
		switch {
		case pd.Text != "" && strings.EqualFold(pd.Encoding, "base64"):
			if c.Body, err = base64.StdEncoding.DecodeString(pd.Text); err != nil {
				return Capture{}, fmt.Errorf("%w: postData.text is marked base64 but does not decode: %w", ErrCapture, err)
			}
		case pd.Text != "":
			c.Body = []byte(pd.Text)
		case len(pd.Params) > 0:
			parts := make([]string, len(pd.Params))
			for i, p := range pd.Params {
				parts[i] = url.QueryEscape(p.Name) + "=" + url.QueryEscape(p.Value)
			}
			c.Body = []byte(strings.Join(parts, "&"))
		}
		if c.Header.Get("Content-Type") == "" && pd.MimeType != "" {
			if err := addHeader(c.Header, "Content-Type", pd.MimeType); err != nil {
				return Capture{}, err
			}
		}
	}
	return c, nil
}
