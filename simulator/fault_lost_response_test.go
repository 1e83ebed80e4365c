package simulator

import "testing"

// A lost answer: the handler did the work, the provider got nothing back.
func TestLostAnswer(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: lost-response}", "")
	if r.Outcome != LostResponse || !r.Reached || r.HandlerStatus != 200 || r.Status != 0 || r.Error != "the answer was lost on the way back (injected)" {
		t.Errorf("got outcome %s, reached %v, handler status %d, status %d, error %q", r.Outcome, r.Reached, r.HandlerStatus, r.Status, r.Error)
	}
}
