package simulator

import (
	"testing"
	"time"
)

// Added latency is recorded whatever the outcome; past the timeout the
// answer is too late for the provider.
func TestLateAnswer(t *testing.T) {
	r := faultAttempt(t, "stripe", "{type: latency, latency: 2s}", "")
	if r.Outcome != Delivered || r.AddedLatency != 2*time.Second {
		t.Errorf("2s: outcome %s, added %s; want delivered with 2s added", r.Outcome, r.AddedLatency)
	}
	r = faultAttempt(t, "stripe", "{type: latency, latency: 31s}", "")
	if r.Outcome != Timeout || !r.Reached || r.HandlerStatus != 200 || r.AddedLatency != 31*time.Second || r.Error != "the injected latency of 31s took the answer past the 30s timeout" {
		t.Errorf("31s: outcome %s, reached %v, handler status %d, added %s, error %q", r.Outcome, r.Reached, r.HandlerStatus, r.AddedLatency, r.Error)
	}
}
