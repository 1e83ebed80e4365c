package capture

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
func ParseHAR(data []byte, entry int) (Request, error) {
	if len(data) > MaxSize {
		return Request{}, fmt.Errorf("%w: larger than %d MiB", ErrUnreadable, MaxSize>>20)
	}
	var f harFile
	if err := json.Unmarshal(data, &f); err != nil {
		return Request{}, fmt.Errorf("%w: not a HAR file: %w", ErrUnreadable, err)
	}
	entries := f.Log.Entries
	if len(entries) == 0 {
		return Request{}, fmt.Errorf("%w: the HAR file has no entries (log.entries)", ErrUnreadable)
	}
	var req *harRequest
	switch {
	case entry < 0 || entry > len(entries):
		return Request{}, fmt.Errorf("%w: entry %d does not exist: the HAR file has %s (1..%d)", ErrUnreadable, entry, counted(int64(len(entries)), "entry", "entries"), len(entries))
	case entry > 0:
		req = &entries[entry-1].Request
	case len(entries) == 1:
		req = &entries[0].Request
	default:
		posts := f.entries(true)
		if len(posts) != 1 {
			return Request{}, fmt.Errorf("%w: the HAR file has %d entries and %d POST requests; choose one with --entry N:\n  %s", ErrUnreadable, len(entries), len(posts), strings.Join(ListEntries(f.entries(false), 10), "\n  "))
		}
		req = &entries[posts[0].N-1].Request
	}
	return harCapture(req)
}

// Entry names one request of a HAR file.
type Entry struct {
	// N is the entry's number, from 1, as ParseHAR's entry takes it.
	N      int
	Method string
	URL    string
}

// String reads "3: POST https://…", the URL cut to 80 bytes.
func (e Entry) String() string {
	return fmt.Sprintf("%d: %s %s", e.N, truncate(e.Method, 10), truncate(e.URL, 80))
}

// HAREntries lists the requests of a HAR file, only its POST requests
// (the ones that can be a webhook delivery) when posts is set.
func HAREntries(data []byte, posts bool) ([]Entry, error) {
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%w: larger than %d MiB", ErrUnreadable, MaxSize>>20)
	}
	var f harFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%w: not a HAR file: %w", ErrUnreadable, err)
	}
	return f.entries(posts), nil
}

func (f *harFile) entries(posts bool) []Entry {
	var out []Entry
	for i, e := range f.Log.Entries {
		if !posts || strings.EqualFold(e.Request.Method, http.MethodPost) {
			out = append(out, Entry{N: i + 1, Method: e.Request.Method, URL: e.Request.URL})
		}
	}
	return out
}

// ListEntries writes entries one a line for a message, at most limit of
// them and then how many more there are.
func ListEntries(entries []Entry, limit int) []string {
	var list []string
	for _, e := range entries[:min(len(entries), limit)] {
		list = append(list, e.String())
	}
	if len(entries) > limit {
		list = append(list, fmt.Sprintf("… and %d more", len(entries)-limit))
	}
	return list
}

func harCapture(req *harRequest) (Request, error) {
	c := Request{Method: strings.ToUpper(req.Method), Header: http.Header{}, Format: FormatHAR}
	if !validMethod(c.Method) {
		return Request{}, fmt.Errorf("%w: method %q is not valid", ErrUnreadable, truncate(req.Method, 20))
	}
	u, err := url.Parse(req.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Request{}, fmt.Errorf("%w: url %q is not an http(s) URL", ErrUnreadable, truncate(req.URL, 80))
	}
	u.RawQuery = cleanQuery(u.RawQuery)
	c.URL = u.String()
	for _, h := range req.Headers {
		if err := addHeader(c.Header, h.Name, h.Value); err != nil {
			return Request{}, err
		}
	}
	if pd := req.PostData; pd != nil {
		switch {
		case pd.Text != "" && strings.EqualFold(pd.Encoding, "base64"):
			if c.Body, err = base64.StdEncoding.DecodeString(pd.Text); err != nil {
				return Request{}, fmt.Errorf("%w: postData.text is marked base64 but does not decode: %w", ErrUnreadable, err)
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
				return Request{}, err
			}
		}
	}
	return c, nil
}
