package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The reasons the provider sent again say which failures the scenario
// injected, so that a fault the run made up is not read as the reader's own
// network failing: all of them in the line's head, or each cause's share
// when only some were; a fault beside a failure of the handler's own
// (an added latency before its 500) did not make it fail.
func TestCausesSayWhatTheScenarioInjected(t *testing.T) {
	// fault sets the fault of the stream's last record.
	fault := func(r *simulator.Record, f string) { r.Fault = f }
	last := func(s *recStream) *simulator.Record { return &s.recs[len(s.recs)-1] }
	for _, c := range []struct {
		name string
		recs func() []simulator.Record
		want report.Injected
		says []string
	}{
		{"every failure injected", func() []simulator.Record {
			s := newRecStream(2)
			s.attempt(0, 1, 0, simulator.LostResponse, 200, true, ms)
			fault(last(s), "lost-response")
			s.attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			s.attempt(1, 1, 0, simulator.ConnectionFailed, 0, false, 0)
			fault(last(s), "drop-request")
			s.attempt(1, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered)
			return s.end(nil, false)
		}, report.InjectedAll, []string{
			"why the provider sent again, all injected by test: 1× the answer was lost after your handler answered (lost_response); " +
				"1 retry after 1 attempt that never reached your handler (connection_failed 1): not duplicates",
		}},
		{"some injected, some real", func() []simulator.Record {
			s := newRecStream(3)
			s.attempt(0, 1, 0, simulator.LostResponse, 200, true, ms)
			fault(last(s), "lost-response")
			s.attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			s.attempt(1, 1, 0, simulator.ConnectionFailed, 0, false, 0)
			fault(last(s), "drop-request")
			s.attempt(1, 2, time.Minute, simulator.ConnectionFailed, 0, false, 0) // nothing listened
			s.attempt(1, 3, time.Hour, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered)
			// A latency added before the handler's own 500: the 500 is the
			// handler's, not the scenario's.
			s.attempt(2, 1, 0, simulator.HTTPError, 500, true, ms)
			fault(last(s), "latency")
			s.attempt(2, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(2, simulator.FateDelivered)
			return s.end(nil, false)
		}, report.InjectedSome, []string{
			"why the provider sent again, partly injected by test: ",
			"1× the answer was lost after your handler answered (lost_response, injected)",
			"1× your handler answered with an error status (http_error)",
			"2 retries after 2 attempts that never reached your handler (connection_failed 2, 1 injected): not duplicates",
		}},
		{"nothing injected", func() []simulator.Record {
			s := newRecStream(1)
			s.attempt(0, 1, 0, simulator.HTTPError, 500, true, ms)
			s.attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
			return s.end(nil, false)
		}, report.InjectedNone, []string{
			"why the provider sent again: 1× your handler answered with an error status (http_error)",
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			runs, err := report.Summarize(c.recs())
			if err != nil {
				t.Fatal(err)
			}
			if got := runs[0].ResendsInjected(); got != c.want {
				t.Errorf("ResendsInjected is %d, want %d", got, c.want)
			}
			var buf bytes.Buffer
			if err := report.WriteText(&buf, &report.Report{Runs: runs, Width: -1}); err != nil {
				t.Fatal(err)
			}
			for _, want := range c.says {
				if !strings.Contains(buf.String(), want) {
					t.Errorf("the text lacks %q:\n%s", want, buf.String())
				}
			}
			if c.want != report.InjectedSome && strings.Contains(buf.String(), "injected)") {
				t.Errorf("the text marks a cause injected, when the head says it for all or none is:\n%s", buf.String())
			}
		})
	}
}
