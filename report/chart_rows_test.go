package report

import (
	"fmt"
	"strings"
	"testing"
)

// A timeline chart of a huge run draws a bounded number of events, read
// one at a time from the spool, and its title says how many of them.
func TestTimelineRowsBounded(t *testing.T) {
	const n = 2*MaxRowEvents + 1
	a := aggregate(t, stream("p", n, 50, 0), WithTimeline(-1), WithSpoolDir(t.TempDir()))
	rep := &Report{Runs: a.Runs()}
	tests := []struct {
		by        string
		rows      int
		drawn     int
		wantTitle string
	}{
		// One in 167: 0, 167, …, 3841, spread over the whole run.
		{ByEvent, DefaultChartRows, DefaultChartRows, fmt.Sprintf("%d of %d events, one in %d", DefaultChartRows, n, (n+DefaultChartRows-1)/DefaultChartRows)},
		// Every third event: 0, 3, …, n-1.
		{ByProvider, 1, (n + 2) / 3, fmt.Sprintf("%d of %d events drawn", (n+2)/3, n)},
	}
	for _, tt := range tests {
		t.Run(tt.by, func(t *testing.T) {
			opts := ChartOptions{By: tt.by}
			rows, err := timelineRows(rep, opts)
			if err != nil {
				t.Fatal(err)
			}
			drawn := 0
			for _, row := range rows {
				drawn += len(row.events)
			}
			if len(rows) != tt.rows || drawn != tt.drawn {
				t.Errorf("%d rows drawing %d events, want %d rows drawing %d", len(rows), drawn, tt.rows, tt.drawn)
			}
			if last := rows[len(rows)-1].events; tt.by == ByProvider && last[len(last)-1].Seq < n-3 {
				t.Errorf("the sample ends at event %d, want one of the last three of %d", last[len(last)-1].Seq, n)
			}
			if title := timelineTitle(rep, rows, opts); !strings.Contains(title, tt.wantTitle) {
				t.Errorf("title %q does not say %q", title, tt.wantTitle)
			}
		})
	}
}
