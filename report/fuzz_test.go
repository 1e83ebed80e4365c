package report

import (
	"errors"
	"slices"
	"strings"
	"testing"
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
		err := ReadJSONL(strings.NewReader(string(data)), agg.Add)
		if err != nil && strings.HasPrefix(err.Error(), "invalid character") {
			t.Fatalf("a parse error does not name its line: %v", err)
		}
		for _, r := range agg.Runs() {
			for o := range r.Outcomes {
				if err == nil && !o.Known() {
					t.Fatalf("an attempt with outcome %q was accepted", o)
				}
			}
			var sb strings.Builder
			if err := WriteText(&sb, &Report{Runs: []*Summary{r}, Timeline: 3}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzParseGates: no --fail-on list makes the parser panic; an unknown gate
// is ErrUnknownGate and quoted; the gates parsed are known, each once.
func FuzzParseGates(f *testing.F) {
	for _, s := range []string{"duplicate-effects,lost-events", "Redirects", " ttl-too-short ", "", ",", "lost-events,lost-events", "slow-responses,nope", "duplicate-effects,,redirects"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		gates, err := ParseGates([]string{s})
		if err != nil {
			if !errors.Is(err, ErrUnknownGate) || !strings.Contains(err.Error(), `"`) {
				t.Fatalf("error %v is not ErrUnknownGate quoting the entry", err)
			}
		}
		for i, g := range gates {
			if !slices.Contains(Gates(), g) || slices.Contains(gates[:i], g) {
				t.Fatalf("parsed %q from %q", gates, s)
			}
		}
	})
}

// FuzzParseTTLs: no list makes the parser panic; a parsed list is not
// empty and holds only positive TTLs, each once.
func FuzzParseTTLs(f *testing.F) {
	for _, s := range []string{"5m,1h,24h,3d,7d,30d", "90s", "1h30m", "2w", "0", "1.5d", ",,5m,", "", "3d2h", "-1h", "1e3d", "NaNd", "Infw", "5m,5m,300s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ds, err := ParseTTLs(s)
		if err != nil {
			return
		}
		if len(ds) == 0 {
			t.Fatal("no error and no TTLs")
		}
		for i, d := range ds {
			if d <= 0 {
				t.Fatalf("%q parsed to a TTL of %s", s, d)
			}
			if slices.Contains(ds[:i], d) {
				t.Fatalf("%q parsed to %s twice", s, d)
			}
		}
	})
}
