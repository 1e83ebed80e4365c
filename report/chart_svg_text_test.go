package report_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// An SVG chart opens whatever text it draws: an event id of accented
// letters is cut on a character, not inside one, and control characters
// from a scenario's name are replaced, not written raw into the XML.
func TestSVGChartOfHostileTextIsWellFormed(t *testing.T) {
	s := newRecStream(1)
	recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
	id := "évènement-" + strings.Repeat("é", 20)
	for i := range recs {
		recs[i].Scenario = "test\x01\x1b[31m"
		if recs[i].EventID != "" {
			recs[i].EventID = id
		}
	}
	agg := report.NewAggregator(report.WithTimeline(-1))
	defer agg.Close()
	for i := range recs {
		if err := agg.Add(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	if err := report.WriteChart(&buf, &report.Report{Runs: agg.Runs()}, report.FormatSVG, report.ChartOptions{Chart: report.ChartTimeline}); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(buf.Bytes()))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the SVG does not open: %v", err)
		}
	}
	if !strings.Contains(buf.String(), "évènement-ééééé…") {
		t.Errorf("the event's label is not its first 15 characters and an ellipsis")
	}
}
