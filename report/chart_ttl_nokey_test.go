package report_test

import (
	"bytes"
	"html"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// A retry after a 500 is a duplicate arrival, yet none came after a
// stored key (the handler answered 2xx only then): the TTL chart, which
// draws no line for such a run, says that no duplicate came after a
// stored key, as the text does, not that no duplicate arrived while the
// text counts one.
func TestTTLChartSaysNoDuplicateCameAfterAKey(t *testing.T) {
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.HTTPError, 500, true, ms).attempt(0, 2, time.Minute, simulator.Delivered, 200, true, ms).fate(0, simulator.FateDelivered)
	s.attempt(1, 1, 0, simulator.Delivered, 200, true, ms).fate(1, simulator.FateDelivered)
	recs := s.end(nil, false)
	agg := report.NewAggregator()
	defer agg.Close()
	for i := range recs {
		if err := agg.Add(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	rep := &report.Report{Runs: agg.Runs()}
	if r := rep.Runs[0]; r.DuplicateArrivals != 1 || r.DuplicatesAfterKey() != 0 {
		t.Fatalf("%d duplicate arrivals, %d after a key: not the run the test is about", r.DuplicateArrivals, r.DuplicatesAfterKey())
	}
	var svg bytes.Buffer
	if err := report.WriteChart(&svg, rep, report.FormatSVG, report.ChartOptions{Chart: report.ChartTTL}); err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, m := range regexp.MustCompile(`<text[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg.String(), -1) {
		texts = append(texts, html.UnescapeString(m[1]))
	}
	said := strings.Join(texts, " ")
	if strings.Contains(said, "No duplicate arrived") || strings.Contains(said, "no duplicate arrived") {
		t.Errorf("the chart says no duplicate arrived, of a run with one: %s", said)
	}
	for _, want := range []string{"stripe · no duplicate after a key in this run", "No duplicate came after a stored key"} {
		if !strings.Contains(said, want) {
			t.Errorf("the chart does not say %q: %s", want, said)
		}
	}
}
