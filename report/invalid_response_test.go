package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A handler whose answer is not HTTP reached the handler every time: the
// report counts the arrivals as duplicates caused by that answer, and says
// in words what was wrong and what to change, in text and markdown alike.
func TestInvalidResponseIsExplained(t *testing.T) {
	const bad = `net/http: HTTP/1.x transport connection broken: malformed HTTP response "SSH-2.0-OpenSSH_9.6"`
	s := newRecStream(1)
	s.recs[0].Target = "http://127.0.0.1:3000/webhooks/stripe"
	s.attempt(0, 1, 0, simulator.InvalidResponse, 0, true, 2*ms)
	s.recs[len(s.recs)-1].Error = bad
	s.attempt(0, 2, time.Minute, simulator.InvalidResponse, 0, true, 2*ms)
	s.recs[len(s.recs)-1].Error = bad
	s.attempt(0, 3, 6*time.Minute, simulator.Delivered, 200, true, 2*ms).fate(0, simulator.FateDelivered)
	runs, err := report.Summarize(s.end(nil, false))
	if err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	if r.DuplicateArrivals != 2 || r.Causes[simulator.InvalidResponse] != 2 || r.Causes[simulator.ConnectionFailed] != 0 {
		t.Errorf("duplicates %d, caused by invalid answers %d, by failed connections %d; want 2, 2, 0", r.DuplicateArrivals, r.Causes[simulator.InvalidResponse], r.Causes[simulator.ConnectionFailed])
	}
	for _, format := range []string{report.FormatText, report.FormatMarkdown} {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := report.Write(&buf, &report.Report{Runs: runs, Timeline: 1, Width: -1}, format); err != nil {
				t.Fatal(err)
			}
			out := strings.ReplaceAll(buf.String(), `\_`, "_") // markdown escapes
			for _, want := range []string{
				"invalid_response 2",
				"2× your handler's answer was not valid HTTP (invalid_response)",
				`your handler's answer was not valid HTTP 2 times (malformed HTTP response "SSH-2.0-OpenSSH`,
				"whatever answers at http://127.0.0.1:3000/webhooks/stripe must write a complete HTTP/1.1 status line",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("the report does not say %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "connection broke") || strings.Contains(out, "connection_failed") {
				t.Errorf("the report blames the connection for an answer that was not HTTP:\n%s", out)
			}
		})
	}
}
