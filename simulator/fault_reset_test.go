package simulator

import "testing"

// A reset after the request was sent: the handler answered, the provider
// saw a failed connection and no status.
func TestResetAfterSend(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: reset}", "")
	if r.Outcome != ConnectionFailed || !r.Reached || r.HandlerStatus != 200 || r.Status != 0 || r.Error != "connection reset after the request was sent, before the answer (injected)" {
		t.Errorf("got outcome %s, reached %v, handler status %d, status %d, error %q", r.Outcome, r.Reached, r.HandlerStatus, r.Status, r.Error)
	}
}
