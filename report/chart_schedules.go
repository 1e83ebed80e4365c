package report

import (
	"fmt"
	"image/color"
	"io"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retrysim/retrysim/policies"
)

// Schedule is one policy's retry schedule, for the schedules chart.
type Schedule struct {
	Name string
	// Offsets is when each attempt comes, from the first, if every earlier
	// one failed.
	Offsets []time.Duration
	// Manual is how long after the event a manual redelivery is possible;
	// zero for none.
	Manual time.Duration
}

// PolicySchedules are the schedules of policies, in their order: every
// attempt's offset as if each earlier one failed, and the manual-redelivery
// window.
func PolicySchedules(all []policies.Policy) []Schedule {
	rows := make([]Schedule, len(all))
	for i := range all {
		p := &all[i]
		rows[i] = Schedule{Name: p.Name, Manual: p.ManualRedelivery.D()}
		for n := 1; n <= p.MaxAttempts(); n++ {
			rows[i].Offsets = append(rows[i].Offsets, p.Offset(n))
		}
	}
	return rows
}

// WriteSchedulesChart draws every schedule on one logarithmic time axis,
// one row each, as PNG or SVG: the attempts as dots, the span of automatic
// retries as a line, and the manual-redelivery window as a band.
func WriteSchedulesChart(w io.Writer, format string, schedules []Schedule, opts ChartOptions) error {
	if len(schedules) == 0 {
		return fmt.Errorf("%w: no policies", ErrNoData)
	}
	return render(w, format, opts, func(c draw.Canvas) error {
		drawSchedules(c, schedules)
		return nil
	})
}

func drawSchedules(c draw.Canvas, schedules []Schedule) {
	n := len(schedules)
	y := func(i int) float64 { return float64(n - 1 - i) }
	var hi float64
	for _, s := range schedules {
		if len(s.Offsets) > 0 {
			hi = max(hi, s.Offsets[len(s.Offsets)-1].Seconds())
		}
		hi = max(hi, s.Manual.Seconds())
	}
	p := newPlot("Retry schedules: when each attempt comes if every earlier one fails",
		"time since the first attempt", "")
	timeAxis(&p.X, 0, hi*1.6, true)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	ticks := make([]plot.Tick, n)
	for i, s := range schedules {
		ticks[i] = plot.Tick{Value: y(i), Label: s.Name}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Label.Font = sans(rowLabelSize(n) + 2)
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Width = 0
	p.X.Padding, p.Y.Padding = 0, vg.Points(14)

	grid := &segments{style: draw.LineStyle{Color: color.Gray{Y: 0xe4}, Width: vg.Points(1)}}
	for _, t := range (logTicks{}).Ticks(0, hi*1.6) {
		grid.segs = append(grid.segs, [2][2]float64{{t.Value, -0.6}, {t.Value, float64(n) - 0.4}})
	}
	manual := &rects{colour: fade(colSky, 70), line: fade(colBlue, 120)}
	spans := &segments{style: draw.LineStyle{Color: colBlue, Width: vg.Points(2.5)}}
	dots := &glyphs{style: draw.GlyphStyle{Color: colBlue, Radius: vg.Points(6), Shape: draw.CircleGlyph{}}}
	first := &glyphs{style: draw.GlyphStyle{Color: colBlack, Radius: vg.Points(6), Shape: draw.BoxGlyph{}}}
	var labels []labelAt
	for i, s := range schedules {
		yy := y(i)
		if len(s.Offsets) == 0 {
			continue
		}
		last := s.Offsets[len(s.Offsets)-1].Seconds()
		spans.segs = append(spans.segs, [2][2]float64{{0, yy}, {last, yy}})
		first.pts = append(first.pts, [2]float64{0, yy})
		for _, o := range s.Offsets[1:] {
			dots.pts = append(dots.pts, [2]float64{o.Seconds(), yy})
		}
		if s.Manual > 0 {
			manual.rs = append(manual.rs, rect{x0: 0, x1: s.Manual.Seconds(), y0: yy - 0.32, y1: yy + 0.32})
		}
		words := fmt.Sprintf("%d %s", len(s.Offsets), plural(len(s.Offsets), "attempt", "attempts"))
		if last > 0 {
			words += " over " + dur(s.Offsets[len(s.Offsets)-1])
		}
		if s.Manual > 0 {
			words += " · manual resend " + dur(s.Manual)
		}
		labels = append(labels, labelAt{x: 0, y: yy, text: words})
	}
	p.Add(grid, manual, spans, first, dots)
	p.Add(&textLabels{labels: labels, style: text.Style{Color: colBlack, Font: sans(noteSize), Handler: p.TextHandler, YAlign: draw.YCenter}})
	p.Legend.Add("first attempt", first)
	p.Legend.Add("retry", dots)
	p.Legend.Add("automatic retries", spans)
	p.Legend.Add("manual redelivery window", manual)
	drawWithLegend(c, p, "Each row is one policy. A dedup key must outlive the last retry — and the manual-redelivery window if you resend by hand.")
}

// labelAt is a text placed just right of a data point.
type labelAt struct {
	x, y float64
	text string
}

// textLabels draws labels just above and right of their points, pulled
// back left when they would run off the data area.
type textLabels struct {
	labels []labelAt
	style  text.Style
}

func (t *textLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, l := range t.labels {
		sty := t.style
		x := tx(l.x) + vg.Points(10)
		w := sty.Rectangle(l.text).Max.X
		if x+w > c.Max.X {
			x = c.Max.X - w - vg.Points(4)
		}
		c.FillText(sty, vg.Point{X: x, Y: ty(l.y) + vg.Points(noteSize)}, l.text)
	}
}
