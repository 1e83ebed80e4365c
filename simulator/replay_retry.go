package simulator

import (
	"net/http"
	"slices"

	"github.com/retrysim/retrysim/policies"
)

// attemptHeaders finds the headers a wire writes differently for a retry
// than for the first attempt (Slack's X-Slack-Retry-Num and
// X-Slack-Retry-Reason), by building attempts 1, 2 and 3 of one delivery
// and comparing. Replay writes them afresh for the attempt each send stands
// for, instead of copying the captured ones.
func attemptHeaders(w policies.Wire, ev policies.Event, body []byte, signedURL string) []string {
	build := func(n int, reason string) http.Header {
		h := http.Header{}
		w.Header(h, policies.Delivery{Event: ev, N: n, Body: body, URL: signedURL, Secret: "retrysim-a", SignedAt: DefaultStart, RetryReason: reason})
		return h
	}
	first, second, third := build(1, ""), build(2, "http_error"), build(3, "http_timeout")
	var names []string
	for _, h := range []http.Header{second, third} {
		for k := range h {
			if !slices.Equal(first[k], h[k]) && !slices.Contains(names, k) {
				names = append(names, k)
			}
		}
	}
	slices.Sort(names)
	return names
}

// replayReason is the retry reason a provider gives for the send after s,
// in Slack's words, or "" when s was delivered.
func replayReason(s *ReplaySend, p *policies.Policy) string {
	switch {
	case s.Status != 0 && p.Succeeded(s.Status):
		return ""
	case s.Status != 0:
		if s.Status >= 300 && s.Status < 400 {
			return slackReason(Redirect)
		}
		return slackReason(HTTPError)
	case s.Reached:
		return slackReason(Timeout)
	}
	return slackReason(ConnectionFailed)
}
