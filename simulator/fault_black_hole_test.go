package simulator

import "testing"

// A request that goes nowhere is a timeout the handler never saw.
func TestSwallowedRequestTimesOut(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: drop-request, as: timeout}", "")
	if r.Outcome != Timeout || r.Reached || r.Status != 0 || r.Error != "no answer within the 30s timeout: the request went nowhere (injected)" {
		t.Errorf("got outcome %s, reached %v, status %d, error %q", r.Outcome, r.Reached, r.Status, r.Error)
	}
}
