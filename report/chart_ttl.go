package report

import (
	"fmt"
	"image/color"
	"math"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// drawTTLChart draws, for each run in a panel of its own, the share of
// duplicate deliveries a dedup TTL lets through against the TTL: solid for
// this run, dashed for the policy's worst case, the recommendation dotted
// and labelled above the curves. Every line sits on its value: runs are
// told apart by their panels, not by moving their lines.
func drawTTLChart(c draw.Canvas, rep *Report) error {
	if len(rep.Runs) == 0 {
		return fmt.Errorf("%w: the results hold no runs", ErrNoData)
	}
	lo, hi := time.Second, 30*24*time.Hour
	for _, r := range rep.Runs {
		t := r.TTL(rep.TTLs)
		hi = max(hi, t.WithManual, t.Recommended*2)
	}
	for _, ttl := range rep.ttlChoices() {
		lo = min(lo, ttl)
		hi = max(hi, ttl)
	}
	const samples = 400
	xs := make([]time.Duration, samples)
	for i := range xs {
		f := float64(i) / (samples - 1)
		xs[i] = time.Duration(math.Exp(math.Log(float64(lo)) + f*(math.Log(float64(hi))-math.Log(float64(lo)))))
	}
	n := len(rep.Runs)
	// A grid about as wide as the picture: 3 panels a row for six
	// providers, 6 for every provider.
	cols := min(n, max(3, int(math.Ceil(math.Sqrt(float64(n)*1.2)))))
	rows := (n + cols - 1) / cols
	small := n > 6
	plots := make([][]*plot.Plot, rows)
	for i := range plots {
		plots[i] = make([]*plot.Plot, cols)
	}
	black := color.RGBA{0x20, 0x20, 0x20, 0xff}
	legendObs := &segments{style: draw.LineStyle{Color: black, Width: vg.Points(3.5)}}
	legendWorst := &segments{style: draw.LineStyle{Color: black, Width: vg.Points(2.5), Dashes: []vg.Length{vg.Points(10), vg.Points(6)}}}
	legendRec := &vmark{style: draw.LineStyle{Color: black, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(2), vg.Points(4)}}}
	// The legend names only the lines some panel draws: no run with a
	// duplicate draws no solid line, no policy that retries no dashed one.
	drawnObs, drawnWorst := false, false
	var longest []time.Duration
	for i, r := range rep.Runs {
		col := runColour(i)
		t := r.TTL(rep.TTLs)
		total := r.DuplicatesAfterKey()
		title := fmt.Sprintf("%s · %s in this run", r.Policy, thousands(total)+plural(total, " duplicate", " duplicates"))
		if small {
			title = fmt.Sprintf("%s · %s dup.", r.Policy, thousands(total))
		}
		if total == 0 {
			// No solid line for a share of nothing: a flat 0 would read
			// as a TTL that works. Duplicates may have come before a key
			// was stored (a retry after a 500): none came after one.
			title = r.Policy + " · no duplicate after a key in this run"
			if small {
				title = r.Policy + " · no dup."
			}
		}
		xl, yl := "", ""
		if i+cols >= n && !small {
			xl = "dedup TTL"
		}
		if i%cols == 0 && rows <= 2 {
			yl = "let through (%)"
		}
		p := newPlot(title, xl, yl)
		p.Title.TextStyle.Font = boldSans(labelSize)
		if small {
			p.Title.TextStyle.Font = boldSans(noteSize)
			for _, a := range []*plot.Axis{&p.X, &p.Y} {
				a.Tick.Label.Font = sans(noteSize - 3)
			}
		}
		p.X.Min, p.X.Max = lo.Seconds(), hi.Seconds()
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = ttlTicks{sparse: cols > 1}
		// Room above 100% for the recommendation's label and the TTL
		// choices', clear of the curves, which never go above 100%: more
		// of it in a grid of shorter panels, whose narrower ones stack the
		// choices' labels in more rows.
		p.Y.Min, p.Y.Max = 0, 125
		if rows > 1 {
			p.Y.Max = 140
		}
		p.Y.Padding = vg.Points(6)
		p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 50, Label: "50%"}, {Value: 100, Label: "100%"}})
		line := &vmark{
			x: t.Recommended.Seconds(), label: "recommend " + dur(t.Recommended), labelTop: true,
			style: draw.LineStyle{Color: col, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(2), vg.Points(4)}},
			text:  text.Style{Color: col, Font: boldSans(noteSize), Handler: p.TextHandler},
		}
		// Each choice labelled over its line, clear of the recommendation.
		choiceFont := sans(noteSize)
		switch {
		case small:
			choiceFont = sans(noteSize - 3)
		case cols > 2:
			choiceFont = sans(noteSize - 2)
		}
		choices := &ttlChoiceMarks{
			ttls: rep.ttlChoices(), rec: line,
			line: draw.LineStyle{Color: color.Gray{Y: 0xcc}, Width: vg.Points(1)},
			text: text.Style{Color: colDarkGrey, Font: choiceFont, Handler: p.TextHandler},
		}
		line.around = func() []vg.Rectangle { return choices.placed }
		p.Add(choices)
		// Each curve is one path, so the worst case's dashes run along
		// its steps: a stroke per step started the dash afresh every few
		// pixels and drew it solid, like this run's line.
		obs := &polyline{style: draw.LineStyle{Color: col, Width: vg.Points(3.5)}}
		worst := &polyline{style: draw.LineStyle{Color: col, Width: vg.Points(2.5), Dashes: []vg.Length{vg.Points(10), vg.Points(6)}}}
		obs.pts, worst.pts = ttlCurves(r, t, xs)
		drawnObs = drawnObs || len(obs.pts) > 0
		drawnWorst = drawnWorst || len(worst.pts) > 0
		p.Add(worst, obs)
		if len(obs.pts) > 0 && t.Observed > 0 {
			// Where this run's line reaches 0: the longest wait from a key
			// to a duplicate. Past a few hundred duplicates the last of
			// them are a share too small to lift the line off 0, and it
			// read as reaching 0 hours before it does.
			last := &glyphs{style: draw.GlyphStyle{Color: col, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}, pts: [][2]float64{{t.Observed.Seconds(), 0}}}
			p.Add(last)
			longest = append(longest, t.Observed)
		}
		p.Add(line)
		plots[i/cols][i%cols] = p
	}
	r0 := rep.Runs[0]
	title := fmt.Sprintf("Duplicates a dedup TTL lets through · %s · seed %d", r0.Scenario, r0.Seed)
	if rows > 2 {
		title = fmt.Sprintf("Share of duplicates let through, by dedup TTL · %s · seed %d", r0.Scenario, r0.Seed)
	}
	lg := plot.NewLegend()
	lg.TextStyle.Font = sans(legendSize)
	lg.ThumbnailWidth = vg.Points(28)
	if drawnObs {
		lg.Add("this run", legendObs)
	}
	if len(longest) > 0 {
		lg.Add("this run's longest wait", &glyphs{style: draw.GlyphStyle{Color: black, Radius: vg.Points(5), Shape: draw.CircleGlyph{}}})
	}
	if drawnWorst {
		lg.Add("worst case", legendWorst)
	}
	lg.Add("recommended TTL", legendRec)
	lg.Add("TTL choices compared", &segments{style: draw.LineStyle{Color: color.Gray{Y: 0xcc}, Width: vg.Points(2)}})
	drawPanels(c, title, plots, &lg, ttlChartNote(drawnObs, drawnWorst, longest))
	return nil
}

// ttlCurves are a run's two curves, as steps through xs, each one line
// of points: the share of this run's duplicate arrivals each TTL lets
// through, and of the worst case's retries; none for a share of nothing.
// Each flat part starts at its TTL's value and drops straight down at the
// next TTL whose value differs.
func ttlCurves(r *Summary, t TTLAnalysis, xs []time.Duration) (obs, worst [][2]float64) {
	total := r.DuplicatesAfterKey()
	pct := func(n, of int) float64 { return 100 * float64(n) / float64(of) }
	if total > 0 {
		obs = steps(xs, func(d time.Duration) float64 { return pct(r.LeakedAt(d), total) })
	}
	if t.Retries > 0 {
		worst = steps(xs, func(d time.Duration) float64 { return pct(r.WorstLeakedAt(d), t.Retries) })
	}
	return obs, worst
}

// steps is the line through the values of f at xs as a step: flat from
// each x to the next at which f differs, then straight down (or up) there.
func steps(xs []time.Duration, f func(time.Duration) float64) [][2]float64 {
	if len(xs) == 0 {
		return nil
	}
	y := f(xs[0])
	pts := [][2]float64{{xs[0].Seconds(), y}}
	for _, x := range xs[1:] {
		if v := f(x); v != y {
			pts = append(pts, [2]float64{x.Seconds(), y}, [2]float64{x.Seconds(), v})
			y = v
		}
	}
	if last := xs[len(xs)-1].Seconds(); pts[len(pts)-1][0] != last {
		pts = append(pts, [2]float64{last, y})
	}
	return pts
}

// drawPanels draws a title across the top, plots in a grid under it, and
// the legend and note in a column on the right.
func drawPanels(c draw.Canvas, title string, plots [][]*plot.Plot, lg *plot.Legend, note string) {
	pad := vg.Points(16)
	lw := legendWidth(lg)
	ts := text.Style{Font: boldSans(titleSize), Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YTop, Color: color.Black}
	area := draw.Crop(c, pad, -(lw + 2*pad), pad, -pad)
	c.FillText(ts, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: c.Max.Y - pad}, title)
	grid := draw.Crop(area, 0, 0, 0, -vg.Points(titleSize*2))
	tiles := draw.Tiles{Rows: len(plots), Cols: len(plots[0]), PadX: vg.Points(18), PadY: vg.Points(18)}
	// A panel's title is centred over its tile: a long one ran into the
	// next panel's, or into the legend's note. It is fitted before the
	// panels are aligned, which takes the titles' heights into account.
	tile := (grid.Max.X - grid.Min.X - tiles.PadX*vg.Length(tiles.Cols-1)) / vg.Length(tiles.Cols)
	for i := range plots {
		for _, p := range plots[i] {
			if p != nil {
				fitTitle(p, tile)
			}
		}
	}
	canvases := plot.Align(plots, tiles, grid)
	for i := range plots {
		for j, p := range plots[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	drawLegendColumn(c, lg, lw, pad, note)
}

// ttlTicks labels a logarithmic axis of TTL seconds; sparse, in a narrow
// panel, every other tick.
type ttlTicks struct{ sparse bool }

var ttlTickValues = []time.Duration{
	time.Second, 10 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 3 * time.Hour, 8 * time.Hour,
	24 * time.Hour, 3 * 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 90 * 24 * time.Hour, 365 * 24 * time.Hour,
}

func (t ttlTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, d := range ttlTickValues {
		if v := d.Seconds(); v >= lo*0.999 && v <= hi*1.001 {
			out = append(out, plot.Tick{Value: v, Label: dur(d)})
		}
	}
	if t.sparse {
		for i := range out {
			if i%2 == 1 {
				out[i].Label = ""
			}
		}
	}
	return out
}
