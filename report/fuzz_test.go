package report

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// FuzzReadJSONL: no results stream makes the reader or the aggregator
// panic; a line that does not parse is an error naming its line.
func FuzzReadJSONL(f *testing.F) {
	f.Add([]byte(`{"kind":"run","provider":"stripe","policy":"stripe","scenario":"happy","seed":1,"events":1,"time":"2026-01-01T00:00:00Z","at_seconds":0,"status":0,"handler_status":0,"reached_handler":false,"latency_ms":0,"fault":"","seq":0}` + "\n" +
		`{"kind":"attempt","provider":"stripe","policy":"stripe","scenario":"happy","seed":1,"event":"evt_1","seq":0,"n":1,"time":"2026-01-01T00:00:01Z","at_seconds":0,"outcome":"delivered","status":200,"handler_status":200,"reached_handler":true,"latency_ms":1.5,"fault":""}` + "\n" +
		`{"kind":"event","provider":"stripe","policy":"stripe","scenario":"happy","seed":1,"event":"evt_1","seq":0,"n":1,"fate":"delivered","time":"2026-01-01T00:00:01Z","at_seconds":0,"status":0,"handler_status":0,"reached_handler":false,"latency_ms":0,"fault":""}` + "\n" +
		`{"kind":"end","provider":"stripe","policy":"stripe","scenario":"happy","seed":1,"seq":0,"time":"2026-01-01T00:00:02Z","at_seconds":0,"status":0,"handler_status":0,"reached_handler":false,"latency_ms":0,"fault":"","interrupted":true}` + "\n"))
	f.Add([]byte(`{"kind":"attempt","seq":-5,"n":-1,"latency_ms":-3}` + "\n"))
	f.Add([]byte("not json\n"))
	f.Add([]byte(`{"kind":"end"}` + "\n" + `{"kind":"attempt","event":"x","seq":99999999}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		agg := NewAggregator(WithTimeline(3))
		err := ReadJSONL(strings.NewReader(string(data)), func(r simulator.Record) error { return agg.Add(r) })
		if err != nil && strings.HasPrefix(err.Error(), "invalid character") {
			t.Fatalf("a parse error does not name its line: %v", err)
		}
		for _, r := range agg.Runs() {
			var sb strings.Builder
			if err := WriteText(&sb, &Report{Runs: []*Run{r}, Timeline: 3}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
