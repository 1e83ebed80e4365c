package advice_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator/capture"
)

// TestNotADelivery: a captured GET is said to be no delivery, naming the
// capture as the user gave it; a HAR file's POST entries are listed to
// choose from with --entry.
func TestNotADelivery(t *testing.T) {
	got := advice.NotADelivery("health.http", 0, capture.Request{Method: "GET"}, nil).Error()
	if want := "--request health.http: this is a GET request without a signature header of any provider ("; !strings.HasPrefix(got, want) {
		t.Errorf("%q, want it to start %q", got, want)
	}
	har := []byte(`{"log":{"entries":[
		{"request":{"method":"GET","url":"http://127.0.0.1/health","headers":[]}},
		{"request":{"method":"POST","url":"http://127.0.0.1/hook","headers":[],"postData":{"text":"{}"}}}]}}`)
	got = advice.NotADelivery("c.har", 1, capture.Request{Method: "GET", Format: capture.FormatHAR}, har).Error()
	if !strings.HasPrefix(got, "--request c.har --entry 1: this is a GET request") || !strings.Contains(got, "; the POST entries (choose one with --entry N):\n  ") || !strings.Contains(got, "/hook") {
		t.Errorf("HAR: %q", got)
	}
}
