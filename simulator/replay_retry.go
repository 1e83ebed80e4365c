package simulator

import "github.com/retrysim/retrysim/policies"

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
