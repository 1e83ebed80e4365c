package report

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retrysim/retrysim/simulator"
)

// ErrNoData is returned, wrapped, when there is nothing to draw.
var ErrNoData = errors.New("nothing to draw")

// outcomeStyle is how the timeline draws one outcome.
type outcomeStyle struct {
	outcome simulator.Outcome
	label   string
	glyph   draw.GlyphDrawer
	colour  color.Color
}

// outcomeStyles: shape and colour both differ, so the chart reads in grey.
var outcomeStyles = []outcomeStyle{
	{simulator.Delivered, "delivered (2xx in time)", draw.CircleGlyph{}, colGreen},
	{simulator.LostResponse, "answer lost (handler did the work)", draw.PyramidGlyph{}, colOrange},
	{simulator.Timeout, "timeout", draw.BoxGlyph{}, colVermilion},
	{simulator.HTTPError, "HTTP error", thickCross{width: vg.Points(3)}, colRed},
	{simulator.InvalidResponse, "answer not valid HTTP", draw.PlusGlyph{}, colBlack},
	{simulator.Redirect, "redirect (not followed)", thickSquare{width: vg.Points(2.5)}, colPurple},
	{simulator.ConnectionFailed, "connection failed (never reached)", thickRing{width: vg.Points(2)}, colDarkGrey},
}

// outageColour shades an outage in every chart.
var outageColour = color.NRGBA{0xD5, 0x5E, 0x00, 0x38}

// timelineRow is one row of the timeline: one event.
type timelineRow struct {
	label  string
	run    *Summary
	events []*EventTimeline
	// shown is the sample of its run the row is of.
	shown Shown
}

func timelineRows(rep *Report, opts ChartOptions) ([]timelineRow, error) {
	var rows []timelineRow
	limit := opts.Rows
	if limit <= 0 {
		limit = DefaultChartRows
	}
	per := max(1, limit/max(1, len(rep.Runs)))
	for _, r := range rep.Runs {
		// A big run is drawn by a sample that shows every kind of fate
		// it had, spread over all of it, not by its first few minutes.
		sh, err := r.Sample(per)
		if err != nil {
			return nil, err
		}
		for _, ev := range sh.Events {
			label := shortLabel(ev.ID)
			if len(rep.Runs) > 1 {
				label = r.Policy + "  " + label
			}
			rows = append(rows, timelineRow{label: label, run: r, events: []*EventTimeline{ev}, shown: sh})
		}
	}
	return rows, nil
}

// shortLabel is an event's row label: its id, cut to 15 characters (not
// bytes, which could split one) and an ellipsis past 16.
func shortLabel(id string) string {
	if utf8.RuneCountInString(id) > 16 {
		return string([]rune(id)[:15]) + "…"
	}
	return id
}

// chartTTL is the dedup window drawn for run r.
func chartTTL(rep *Report, r *Summary, opts ChartOptions) time.Duration {
	if opts.TTL > 0 {
		return opts.TTL
	}
	return r.TTL(rep.TTLs).Recommended
}

// drawTimeline draws every attempt on virtual time, one row per event of
// a sample with every kind of fate, with outcomes as markers, outages
// shaded, each event's dedup window from its key time, leaks ringed and
// the endpoint-disable moment marked.
func drawTimeline(c draw.Canvas, rep *Report, opts ChartOptions) error {
	rows, err := timelineRows(rep, opts)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("%w: the results hold no attempts", ErrNoData)
	}
	ax := timelineAxis{log: opts.Log}
	lo, hi := ax.span(rep, rows)
	// The axis is at least a second wide (timeAxis), and the marks that
	// run to its right edge (a key kept past it, its arrow) go there: on
	// an axis of time since each event's first attempt, rows of a single
	// attempt each put the last mark at 0.
	hi = max(hi, 1)
	n := len(rows)
	m := newTimelineMarks(n)
	for i, row := range rows {
		m.addRow(rep, row, float64(n-1-i), ax, hi, opts)
	}

	title := timelineTitle(rep) + "\n" + chartVerdict(rep) + " · recommend TTL " + dur(rep.RecommendedTTL())
	if sig := chartSignature(rep); sig != "" {
		// Attacks are drawn on no row: the title says what they got.
		title += "\n" + sig
	}
	xLabel := "virtual time since the start of the run"
	if opts.Log {
		xLabel = "virtual time since each event's first attempt"
	}
	p := newPlot(title, xLabel, "")
	timeAxis(&p.X, lo, hi, opts.Log)
	// A chart of one or two rows keeps rows of a readable height.
	slack := max(0, float64(4-n)/2)
	p.Y.Min, p.Y.Max = -0.6-slack, float64(n)-0.4+slack+float64(runLineLabels(rep, opts))
	ticks := make([]plot.Tick, n)
	for i, row := range rows {
		ticks[i] = plot.Tick{Value: float64(n - 1 - i), Label: row.label}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Label.Font = sans(rowLabelSize(n))
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Width = 0
	p.X.Padding, p.Y.Padding = 0, vg.Points(8)
	p.Add(rowGrid(rows, p.X.Min, hi))

	// With several runs, a run's outages and disable moment are drawn over
	// its own rows only: one run's outage is not another's.
	runRows := func(r *Summary) (y0, y1 float64) {
		if len(rep.Runs) == 1 {
			return p.Y.Min, float64(n) - 0.4 + slack
		}
		y0, y1 = p.Y.Max, p.Y.Min
		for i, row := range rows {
			if row.run == r {
				y := float64(n - 1 - i)
				y0, y1 = min(y0, y-0.5), max(y1, y+0.5)
			}
		}
		return y0, y1
	}
	outages := timelineOutages(rep, rows, ax, hi, runRows)
	if len(outages.rs) > 0 {
		p.Add(outages)
	}
	paused := &rects{colour: pauseColour}
	for _, r := range rep.Runs {
		y0, y1 := runRows(r)
		for _, o := range r.Pauses {
			paused.rs = append(paused.rs, rect{x0: ax.run(r, o.From), x1: ax.run(r, o.To), y0: y0, y1: y1})
		}
	}
	if len(paused.rs) > 0 {
		p.Add(paused)
	}
	p.Add(m.windows, m.onward, m.spans)
	restarts, disables := runLines(p, rep, opts, runRows)
	p.Add(m.attempts)
	for _, st := range outcomeStyles {
		if m.seen[st.outcome] {
			lg := *m.byOutcome[st.outcome]
			lg.style.Radius = vg.Points(7)
			p.Legend.Add(st.label, &lg)
		}
	}
	p.Add(m.leaks, m.gaveUp, m.reprocessed, m.neverSent, m.dropped, m.paused)
	m.legend(p, outages, paused, restarts, disables)
	note := m.note(rep, rows, opts, len(outages.rs) > 0)
	if sn := sampleNote(rep, rows); sn != "" {
		note = sn + " " + note
	}
	drawWithLegend(c, p, note)
	return nil
}

// timelineAxis places virtual time on the timeline's x axis. On a
// logarithmic axis an event's time is since its own first attempt, so
// every event's retries spread over the same decades; otherwise it is
// since the run's start.
type timelineAxis struct{ log bool }

// run is where moment t of run r goes, on a linear axis.
func (timelineAxis) run(r *Summary, t time.Time) float64 { return t.Sub(r.Start).Seconds() }

// event is where moment t of event ev, of run r, goes.
func (ax timelineAxis) event(r *Summary, ev *EventTimeline, t time.Time) float64 {
	if ax.log && len(ev.Attempts) > 0 {
		return t.Sub(ev.Attempts[0].Time).Seconds()
	}
	return ax.run(r, t)
}

// span is the x range: every attempt shown, outages, the disable moment,
// and a margin after them.
func (ax timelineAxis) span(rep *Report, rows []timelineRow) (lo, hi float64) {
	lo = math.Inf(1)
	for _, row := range rows {
		for _, ev := range row.events {
			for _, a := range ev.Attempts {
				hi = max(hi, ax.event(row.run, ev, a.Time))
				lo = min(lo, ax.event(row.run, ev, a.Time))
			}
			if len(ev.Attempts) == 0 && !ev.Due.IsZero() && !ax.log {
				hi = max(hi, ax.run(row.run, ev.Due)) // never sent: marked when due
			}
		}
	}
	for _, r := range rep.Runs {
		if ax.log {
			break // run times are not on this axis
		}
		for _, o := range outagesOf(r) {
			hi = max(hi, ax.run(r, o.To))
		}
		if !r.DisabledAt.IsZero() {
			hi = max(hi, ax.run(r, r.DisabledAt))
		}
	}
	// A margin of 4% of the axis's width past the last mark, so that no
	// mark or label sits on the right edge: on a logarithmic axis that is
	// 4% of log(1+t), not of t.
	if ax.log {
		return lo, math.Expm1(math.Log1p(hi) * 1.04)
	}
	return lo, hi * 1.04
}

// timelineMarks are the marks of the timeline's rows, one set per kind,
// each drawn from what the facts say of the row's event (eventMarks).
type timelineMarks struct {
	byOutcome map[simulator.Outcome]*glyphs
	seen      map[simulator.Outcome]bool // the outcomes met, for the legend
	attempts  *attemptMarks
	leaks     *glyphs
	// The dedup key is a thin band under the row's attempts: it runs for
	// days past the right edge, and must not hide them.
	windows     *rects
	onward      *glyphs
	gaveUp      *glyphs
	reprocessed *rowNotes
	neverSent   *glyphs
	// dropped and paused are the events never sent for the provider's own
	// outage, and for a disable that lasted a while.
	dropped, paused *glyphs
	spans           *segments
	ttlWords        []string
}

// newTimelineMarks returns empty marks for n rows, the glyph size
// following the row height so dense charts stay legible.
func newTimelineMarks(n int) *timelineMarks {
	radius := vg.Points(min(7, max(3.5, 300/float64(n))))
	m := &timelineMarks{
		byOutcome:   map[simulator.Outcome]*glyphs{},
		seen:        map[simulator.Outcome]bool{},
		attempts:    &attemptMarks{radius: radius},
		leaks:       &glyphs{style: draw.GlyphStyle{Color: colRed, Radius: radius * 1.9, Shape: thickRing{width: vg.Points(2.5)}}},
		windows:     &rects{colour: fade(colSky, 110), line: fade(colBlue, 120)},
		onward:      &glyphs{style: draw.GlyphStyle{Color: fade(colBlue, 200), Radius: radius * 0.9, Shape: arrowRight{}}},
		gaveUp:      &glyphs{style: draw.GlyphStyle{Color: colRed, Radius: radius * 1.3, Shape: endBar{width: vg.Points(3)}}},
		reprocessed: &rowNotes{text: text.Style{Color: colRed, Font: boldSans(rowLabelSize(n)), Handler: plot.DefaultTextHandler}},
		neverSent:   &glyphs{style: draw.GlyphStyle{Color: colBlack, Radius: radius, Shape: thickDiamond{width: vg.Points(2.5)}}},
		dropped:     &glyphs{style: draw.GlyphStyle{Color: colVermilion, Radius: radius, Shape: thickDiamond{width: vg.Points(2.5)}}},
		paused:      &glyphs{style: draw.GlyphStyle{Color: colPurple, Radius: radius, Shape: thickDiamond{width: vg.Points(2.5)}}},
		spans:       &segments{style: draw.LineStyle{Color: fade(colGrey, 160), Width: vg.Points(1.5)}},
	}
	for _, st := range outcomeStyles {
		m.byOutcome[st.outcome] = &glyphs{style: draw.GlyphStyle{Color: st.colour, Radius: radius, Shape: st.glyph}}
	}
	return m
}

// addRow lays out the marks of one row, at height yy, on an axis that
// ends at hi.
func (m *timelineMarks) addRow(rep *Report, row timelineRow, yy float64, ax timelineAxis, hi float64, opts ChartOptions) {
	ttl := chartTTL(rep, row.run, opts)
	w := dur(ttl)
	if opts.TTL == 0 && len(rep.Runs) > 1 {
		w = row.run.Policy + " " + w
	}
	if !contains(m.ttlWords, w) {
		m.ttlWords = append(m.ttlWords, w)
	}
	for _, ev := range row.events {
		for _, a := range ev.Attempts {
			m.seen[a.Outcome] = true
		}
		if len(ev.Attempts) == 0 {
			// Never sent: marked by why, at the disable moment or when it
			// was due (at 0 on an axis of each event's own time). An event
			// an interrupt kept from its first attempt has no mark: each
			// mark's legend names a reason that was not its.
			var g *glyphs
			switch ev.Fate {
			case simulator.FateDisabled:
				g = m.neverSent
			case simulator.FateDropped:
				g = m.dropped
			case simulator.FatePaused:
				g = m.paused
			default:
				continue
			}
			switch {
			case opts.Log:
				g.pts = append(g.pts, [2]float64{0, yy})
			case g == m.neverSent && !row.run.DisabledAt.IsZero():
				g.pts = append(g.pts, [2]float64{ax.run(row.run, row.run.DisabledAt), yy})
			case !ev.Due.IsZero():
				g.pts = append(g.pts, [2]float64{ax.run(row.run, ev.Due), yy})
			}
			continue
		}
		facts := row.run.marksOf(ev, ttl)
		at := func(t time.Time) float64 { return ax.event(row.run, ev, t) }
		first, last := at(ev.Attempts[0].Time), at(ev.Attempts[len(ev.Attempts)-1].Time)
		if last > first {
			m.spans.segs = append(m.spans.segs, [2][2]float64{{first, yy}, {last, yy}})
		}
		if facts.hasKey {
			half := 0.36
			k, band := at(facts.key), half*0.3
			end := k + ttl.Seconds()
			if end > hi {
				// The key outlives the chart: the band stops at the
				// edge with an arrow, rather than run off it.
				end = hi
				m.onward.pts = append(m.onward.pts, [2]float64{hi, yy})
			}
			m.windows.rs = append(m.windows.rs, rect{x0: k, x1: end, y0: yy - band, y1: yy + band})
		}
		for i, a := range ev.Attempts {
			x := at(a.Time)
			if g := m.byOutcome[a.Outcome]; g != nil {
				m.attempts.add(x, yy, g.style)
				g.pts = append(g.pts, [2]float64{x, yy})
			}
			if slices.Contains(facts.leaked, i) {
				m.leaks.pts = append(m.leaks.pts, [2]float64{x, yy})
			}
		}
		if facts.gaveUp {
			m.gaveUp.pts = append(m.gaveUp.pts, [2]float64{last, yy})
		}
		if facts.times > 0 {
			m.reprocessed.add(last, yy, fmt.Sprintf("×%d", facts.times))
		}
	}
}

// legend adds the legend entries of the marks drawn, and of the runs'
// outages, pauses, restarts and disables, in the order the chart keeps.
func (m *timelineMarks) legend(p *plot.Plot, outages, paused *rects, restarts, disables []*vmark) {
	keyWords := "dedup key kept (" + strings.Join(m.ttlWords, ", ") + ")"
	if len(m.ttlWords) > 2 {
		keyWords = "dedup key kept (recommended TTL)"
	}
	if len(m.windows.rs) > 0 {
		p.Legend.Add(keyWords, m.windows)
	}
	if len(m.leaks.pts) > 0 {
		lk := *m.leaks
		lk.style.Radius = vg.Points(9)
		p.Legend.Add("arrived after the key expired", &lk)
	}
	if len(outages.rs) > 0 {
		p.Legend.Add("outage (attempts refused)", outages)
	}
	if len(paused.rs) > 0 {
		p.Legend.Add(pauseLegend, paused)
	}
	if len(m.gaveUp.pts) > 0 {
		g := *m.gaveUp
		g.style.Radius = vg.Points(8)
		p.Legend.Add("given up: never delivered", &g)
	}
	if len(m.reprocessed.notes) > 0 {
		p.Legend.Add("×N: processed N times", m.reprocessed)
	}
	for _, never := range []struct {
		g     *glyphs
		words string
	}{
		{m.neverSent, "never sent: endpoint disabled first"},
		{m.dropped, "never sent: the provider's own outage"},
		{m.paused, "never sent: endpoint disabled a while"},
	} {
		if len(never.g.pts) > 0 {
			g := *never.g
			g.style.Radius = vg.Points(7)
			p.Legend.Add(never.words, &g)
		}
	}
	if len(restarts) > 0 {
		p.Legend.Add("handler restarted", restarts[0])
	}
	if len(disables) > 0 {
		p.Legend.Add("endpoint disabled", disables[0])
	}
}

// note is the chart's note: what a row is, and what its marks say;
// outages tells whether any is shaded.
func (m *timelineMarks) note(rep *Report, rows []timelineRow, opts ChartOptions, outages bool) string {
	note := "Each row is one event's attempts."
	if len(m.windows.rs) > 0 {
		note = fmt.Sprintf("Each row is one event's attempts; the blue band is its dedup key, kept for %s from the first 2xx the handler gave.", strings.Join(m.ttlWords, ", "))
	}
	if opts.Log {
		note += " Time is since each event's first attempt"
		if outages {
			note += ": outages are shaded on each row at its own time"
		}
		for _, r := range rep.Runs {
			if !r.DisabledAt.IsZero() {
				note += fmt.Sprintf("; %s's endpoint was disabled at +%s of the run", r.Policy, dur(r.DisabledAt.Sub(r.Start)))
			}
		}
		// Nor are restarts drawn on this axis: the note says when they were.
		for _, r := range rep.Runs {
			if len(r.Restarts) > 0 {
				note += fmt.Sprintf("; %s's handler was restarted %s of the run", r.Policy, restartTimes(r.Restarts))
			}
		}
		note += "."
	}
	if len(m.onward.pts) > 0 {
		note += " An arrow: the key is kept past the right edge."
	}
	replays := 0
	for _, r := range rep.Runs {
		replays += r.ReplaysProcessedAgain()
	}
	if replays > 0 {
		note += " " + replaysNote(replays)
	}
	if len(m.leaks.pts) > 0 {
		among := ""
		if !rows[0].shown.Every {
			among = " among the events drawn"
		}
		n := len(m.leaks.pts)
		note += fmt.Sprintf(" %s%s came after %s expired: the handler would process %s again.", counted(n, "arrival", "arrivals"), among, plural(n, "its key", "their key"), plural(n, "it", "them"))
	}
	return note
}

// runLineLabels is how many rows the labels of the restart and disable
// lines take, in a strip above the rows where they cover no mark: one for
// each run's disable and one for the restarts.
func runLineLabels(rep *Report, opts ChartOptions) int {
	if opts.Log {
		return 0 // no run-time lines on an axis of event time
	}
	labels := 0
	for _, r := range rep.Runs {
		if !r.DisabledAt.IsZero() {
			labels++
		}
	}
	for _, r := range rep.Runs {
		if len(r.Restarts) > 0 {
			labels++
			break
		}
	}
	return labels
}

// rowGrid draws lines between the rows, which help the eye follow a row
// across, and a darker one where a new provider's rows begin.
func rowGrid(rows []timelineRow, from, to float64) (grid, groups *segments) {
	n := len(rows)
	grid = &segments{style: draw.LineStyle{Color: color.Gray{Y: 0xe4}, Width: vg.Points(1)}}
	groups = &segments{style: draw.LineStyle{Color: color.Gray{Y: 0x80}, Width: vg.Points(1.5)}}
	for i := 0; i <= n; i++ {
		yy := float64(n-i) - 0.5
		seg := [2][2]float64{{from, yy}, {to, yy}}
		if i > 0 && i < n && rows[i].run != rows[i-1].run {
			groups.segs = append(groups.segs, seg)
			continue
		}
		grid.segs = append(grid.segs, seg)
	}
	return grid, groups
}

// timelineOutages shades the runs' outages: over each run's rows on a
// linear axis, on each row at its own time on a logarithmic one.
func timelineOutages(rep *Report, rows []timelineRow, ax timelineAxis, hi float64, runRows func(*Summary) (float64, float64)) *rects {
	outages := &rects{colour: outageColour}
	if !ax.log {
		for _, r := range rep.Runs {
			y0, y1 := runRows(r)
			for _, o := range outagesOf(r) {
				from, to := ax.run(r, o.From), ax.run(r, o.To)
				if to-from < hi/400 {
					to = from + hi/400 // a single attempt: still visible
				}
				outages.rs = append(outages.rs, rect{x0: from, x1: to, y0: y0, y1: y1})
			}
		}
		return outages
	}
	// Each event meets an outage at its own time since its first attempt:
	// shaded on its own row.
	n := len(rows)
	for i, row := range rows {
		y := float64(n - 1 - i)
		for _, ev := range row.events {
			if len(ev.Attempts) == 0 {
				continue
			}
			for _, o := range outagesOf(row.run) {
				from, to := max(ax.event(row.run, ev, o.From), 0), ax.event(row.run, ev, o.To)
				if to > 0 {
					outages.rs = append(outages.rs, rect{x0: from, x1: max(to, from+hi/400), y0: y - 0.5, y1: y + 0.5})
				}
			}
		}
	}
	return outages
}

// runLines adds the lines of the runs' restarts and disables (none on an
// axis of event time), and returns them for the legend.
func runLines(p *plot.Plot, rep *Report, opts ChartOptions, runRows func(*Summary) (float64, float64)) (restarts, disables []*vmark) {
	if opts.Log {
		return nil, nil
	}
	for _, r := range rep.Runs {
		y0, y1 := runRows(r)
		for i, at := range r.Restarts {
			label := ""
			if i == 0 {
				label = "handler restarted"
			}
			m := &vmark{
				x: at.Seconds(), label: label, row: 0, rows: true, y0: y0, y1: y1,
				style: draw.LineStyle{Color: colPurple, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(2), vg.Points(3)}},
				text:  text.Style{Color: colPurple, Font: sans(noteSize), Handler: p.TextHandler},
			}
			restarts = append(restarts, m)
			p.Add(m)
		}
	}
	for _, r := range rep.Runs {
		if r.DisabledAt.IsZero() {
			continue
		}
		label := "endpoint disabled +" + dur(r.DisabledAt.Sub(r.Start))
		if len(rep.Runs) > 1 {
			label = r.Policy + ": " + label
		}
		y0, y1 := runRows(r)
		m := &vmark{
			x: r.DisabledAt.Sub(r.Start).Seconds(), label: label, row: len(disables) + min(1, len(restarts)), rows: true, y0: y0, y1: y1,
			style: draw.LineStyle{Color: colRed, Width: vg.Points(2.5), Dashes: []vg.Length{vg.Points(8), vg.Points(5)}},
			text:  text.Style{Color: colRed, Font: boldSans(noteSize), Handler: p.TextHandler},
		}
		disables = append(disables, m)
		p.Add(m)
	}
	return restarts, disables
}

func rowLabelSize(n int) vg.Length {
	switch {
	case n <= 12:
		return tickSize
	case n <= 24:
		return 13
	case n <= 36:
		return 11
	}
	return 9
}

// timelineTitle names the runs and gives the totals that matter; which
// events the rows show is said in the note (sampleNote).
func timelineTitle(rep *Report) string {
	names := runNames(rep)
	if len(rep.Runs) > 3 {
		// Every name would not fit on one line at 1600 pixels.
		names = fmt.Sprintf("%d providers", len(rep.Runs))
	}
	r := rep.Runs[0]
	return fmt.Sprintf("%s · %s · seed %d · %s", names, r.Scenario, r.Seed, chartTotals(rep))
}

// sampleNote says which events the rows show, kind by kind, when they do
// not show every event.
func sampleNote(rep *Report, rows []timelineRow) string {
	var parts []string
	for _, r := range rep.Runs {
		var sh *Shown
		for i := range rows {
			if rows[i].run == r {
				sh = &rows[i].shown
				break
			}
		}
		if sh == nil {
			continue
		}
		head := "Rows: " + sampleHead(*sh)
		if len(rep.Runs) > 1 {
			head = r.Policy + " rows: " + sampleHead(*sh)
		}
		if s := sampleShows(*sh); s != "" {
			head += "; " + s
		}
		parts = append(parts, head+".")
	}
	return strings.Join(parts, " ")
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// thickRing is a ring glyph with a chosen stroke width.
type thickRing struct{ width vg.Length }

func (t thickRing) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: t.width})
	var p vg.Path
	p.Move(vg.Point{X: pt.X + sty.Radius, Y: pt.Y})
	p.Arc(pt, sty.Radius, 0, 2*math.Pi)
	p.Close()
	c.Stroke(p)
}

// thickCross is an × glyph with a chosen stroke width.
type thickCross struct{ width vg.Length }

func (t thickCross) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 0.8
	ls := draw.LineStyle{Color: sty.Color, Width: t.width}
	c.StrokeLine2(ls, pt.X-r, pt.Y-r, pt.X+r, pt.Y+r)
	c.StrokeLine2(ls, pt.X-r, pt.Y+r, pt.X+r, pt.Y-r)
}

// thickSquare is a hollow square glyph with a chosen stroke width.
type thickSquare struct{ width vg.Length }

func (t thickSquare) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius * 0.85
	ls := draw.LineStyle{Color: sty.Color, Width: t.width}
	c.StrokeLines(ls, []vg.Point{{X: pt.X - r, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y + r}, {X: pt.X - r, Y: pt.Y + r}, {X: pt.X - r, Y: pt.Y - r}})
}

// thickDiamond is a hollow diamond glyph with a chosen stroke width.
type thickDiamond struct{ width vg.Length }

func (t thickDiamond) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	ls := draw.LineStyle{Color: sty.Color, Width: t.width}
	c.StrokeLines(ls, []vg.Point{{X: pt.X, Y: pt.Y - r}, {X: pt.X + r, Y: pt.Y}, {X: pt.X, Y: pt.Y + r}, {X: pt.X - r, Y: pt.Y}, {X: pt.X, Y: pt.Y - r}})
}
