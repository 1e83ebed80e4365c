package simulator

import "testing"

// A proxy's error status is the provider's answer; the handler never saw
// the request.
func TestEdgeAnswer(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: edge-error, status: [503]}", "")
	if r.Outcome != HTTPError || r.Status != 503 || r.Reached || r.HandlerStatus != 0 || r.Error != "503 from a proxy in front of the handler (injected)" {
		t.Errorf("got outcome %s, status %d, reached %v, handler status %d, error %q", r.Outcome, r.Status, r.Reached, r.HandlerStatus, r.Error)
	}
}
