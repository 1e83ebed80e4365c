package simulator

import "testing"

// A refused connection fails the attempt before the handler is reached.
func TestRefusedConnection(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: drop-request}", "")
	if r.Outcome != ConnectionFailed || r.Reached || r.HandlerStatus != 0 || r.Error != "connection refused (injected)" {
		t.Errorf("got outcome %s, reached %v, handler status %d, error %q", r.Outcome, r.Reached, r.HandlerStatus, r.Error)
	}
}
