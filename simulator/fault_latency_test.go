package simulator

import "testing"

// Added latency is recorded whatever the outcome; past the timeout the
// answer is too late for the provider.
func TestLateAnswer(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: latency, latency: 2s}", "")
	if r.Outcome != Delivered || r.AddedLatencyMS != 2000 {
		t.Errorf("2s: outcome %s, added %vms; want delivered with 2000ms added", r.Outcome, r.AddedLatencyMS)
	}
	r = faultAttempt(t, "stripe", "{type: latency, latency: 31s}", "")
	if r.Outcome != Timeout || !r.Reached || r.HandlerStatus != 200 || r.AddedLatencyMS != 31000 || r.Error != "the injected latency of 31s took the answer past the 30s timeout" {
		t.Errorf("31s: outcome %s, reached %v, handler status %d, added %vms, error %q", r.Outcome, r.Reached, r.HandlerStatus, r.AddedLatencyMS, r.Error)
	}
}
