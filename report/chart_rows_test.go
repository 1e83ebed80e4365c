package report

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// A timeline chart of a huge run draws a bounded number of events, spread
// over the run and read one at a time from the spool, and says how many of
// how many it draws; a row per provider is refused, saying what to draw
// instead.
func TestTimelineRowsBounded(t *testing.T) {
	const n = 4001
	a := aggregate(t, stream("p", n, 50, 0), WithTimeline(-1), WithSpoolDir(t.TempDir()))
	rep := &Report{Runs: a.Runs()}
	rows, err := timelineRows(rep, ChartOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != DefaultChartRows {
		t.Errorf("%d rows, want %d", len(rows), DefaultChartRows)
	}
	if first, last := rows[0].events[0].Seq, rows[len(rows)-1].events[0].Seq; first > n/10 || last < n*8/10 {
		t.Errorf("the rows run from event %d to %d of %d: not spread over the run", first, last, n)
	}
	note := sampleNote(rep, rows)
	if want := "Rows: 24 of 4,001 events"; !strings.Contains(note, want) {
		t.Errorf("note %q does not say %q", note, want)
	}
	if err := WriteChart(io.Discard, rep, FormatPNG, ChartOptions{By: ByProvider}); !errors.Is(err, ErrByProvider) || !strings.Contains(err.Error(), "storm chart") {
		t.Errorf("a row per provider: %v, want ErrByProvider naming the storm chart", err)
	}
}
