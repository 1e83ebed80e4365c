package report

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retrysim/retrysim/policies"
)

// ChartStorm is the storm chart: attempts per minute over virtual time.
const ChartStorm = "storm"

// stormBuckets is about how many bars the storm chart draws: enough to see
// the shape of a storm, few enough that each bar stays visible at 1600
// pixels.
const stormBuckets = 240

// stormSteps are the bar widths the storm chart picks from.
var stormSteps = []time.Duration{
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour, policies.Day,
}

// storm is the attempts of every run counted in bars of virtual time since
// each run's start, by outcome.
type storm struct {
	step   time.Duration
	counts [][]int // [bar][outcome style]
	span   time.Duration
}

// stormOf counts the attempts of rep's runs in bars.
func stormOf(rep *Report) (*storm, error) {
	var span time.Duration
	for _, r := range rep.Runs {
		span = max(span, r.End.Sub(r.Start))
		for _, o := range outagesOf(r) {
			span = max(span, o.To.Sub(r.Start))
		}
	}
	s := &storm{step: stormSteps[len(stormSteps)-1], span: span}
	for _, st := range stormSteps {
		if span/st <= stormBuckets {
			s.step = st
			break
		}
	}
	s.counts = make([][]int, int(span/s.step)+1)
	for i := range s.counts {
		s.counts[i] = make([]int, len(outcomeStyles))
	}
	n := 0
	for _, r := range rep.Runs {
		for ev, err := range r.Timelines() {
			if err != nil {
				return nil, err
			}
			for _, a := range ev.Attempts {
				b := int(a.Time.Sub(r.Start) / s.step)
				if b < 0 || b >= len(s.counts) {
					continue
				}
				for k, st := range outcomeStyles {
					if st.outcome == a.Outcome {
						s.counts[b][k]++
						n++
					}
				}
			}
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: no attempts kept for the storm chart", ErrNoData)
	}
	return s, nil
}

// perMinute turns a count in one bar into attempts per minute.
func (s *storm) perMinute(n int) float64 { return float64(n) / s.step.Minutes() }

// drawStorm draws attempts per minute over virtual time, stacked by
// outcome, with the outages shaded, the moments the endpoint was disabled
// marked and the peak labelled: what a recovering endpoint must absorb.
func drawStorm(c draw.Canvas, rep *Report) error {
	s, err := stormOf(rep)
	if err != nil {
		return err
	}
	unit := "one bar per minute"
	if s.step > time.Minute {
		unit = "bars of " + dur(s.step) + ", as attempts per minute"
	}
	p := newPlot(stormTitle(rep), "virtual time since the run's start", "attempts per minute")
	p.Title.Text += fmt.Sprintf("\n%s · %s", chartVerdict(rep), unit)
	if sig := chartSignature(rep); sig != "" {
		p.Title.Text += "\n" + sig
	}
	timeAxis(&p.X, 0, (s.span + s.step).Seconds(), false)
	peak, peakAt := 0.0, 0
	for i, row := range s.counts {
		tot := 0
		for _, n := range row {
			tot += n
		}
		if v := s.perMinute(tot); v > peak {
			peak, peakAt = v, i
		}
	}
	p.Y.Min, p.Y.Max = 0, peak*1.18+1
	p.Y.Tick.Marker = countTicks{}
	// The outages, one band per run's span, under the bars.
	band := &rects{colour: outageColour}
	for _, r := range rep.Runs {
		for _, o := range outagesOf(r) {
			x := rect{x0: o.From.Sub(r.Start).Seconds(), x1: max(o.To.Sub(r.Start).Seconds(), o.From.Sub(r.Start).Seconds()+s.step.Seconds()), y0: 0, y1: p.Y.Max}
			if !slices.Contains(band.rs, x) { // runs of one scenario share it
				band.rs = append(band.rs, x)
			}
		}
	}
	if len(band.rs) > 0 {
		p.Add(band)
		p.Legend.Add("outage (attempts refused)", band)
	}
	paused := &rects{colour: pauseColour}
	for _, r := range rep.Runs {
		for _, o := range r.Pauses {
			paused.rs = append(paused.rs, rect{x0: o.From.Sub(r.Start).Seconds(), x1: o.To.Sub(r.Start).Seconds(), y0: 0, y1: p.Y.Max})
		}
	}
	if len(paused.rs) > 0 {
		p.Add(paused)
		p.Legend.Add(pauseLegend, paused)
	}
	width := s.step.Seconds()
	bars := &stackedBars{min: vg.Points(minSegment)}
	for _, st := range outcomeStyles {
		bars.colours = append(bars.colours, st.colour)
	}
	seen := make([]bool, len(outcomeStyles))
	for i, row := range s.counts {
		b := stackedBar{x0: float64(i) * width, x1: (float64(i) + 0.9) * width, parts: make([]float64, len(row))}
		for k, n := range row {
			b.parts[k] = s.perMinute(n)
			seen[k] = seen[k] || n > 0
		}
		bars.bars = append(bars.bars, b)
	}
	p.Add(bars)
	for k, st := range outcomeStyles {
		if seen[k] {
			p.Legend.Add(st.label, &rects{colour: st.colour})
		}
	}
	noteSty := text.Style{Font: sans(noteSize), Color: colBlack, Handler: p.Title.TextStyle.Handler}
	marked := false
	for i, r := range rep.Runs {
		if r.DisabledAt.IsZero() {
			continue
		}
		label := "endpoint disabled"
		if len(rep.Runs) > 1 {
			label = r.Policy + " disabled"
		}
		m := &vmark{x: r.DisabledAt.Sub(r.Start).Seconds(), label: label, row: i + 1,
			style: draw.LineStyle{Color: colRed, Width: vg.Points(2.5), Dashes: []vg.Length{vg.Points(6), vg.Points(4)}}, text: noteSty}
		p.Add(m)
		if !marked {
			p.Legend.Add("endpoint disabled", m)
			marked = true
		}
	}
	// The peak is marked over its bar and said in the note: a label in
	// the plot would sit on bars or lines.
	peakMark := &glyphs{style: draw.GlyphStyle{Color: colBlack, Radius: vg.Points(6), Shape: draw.PyramidGlyph{}}, pts: [][2]float64{{(float64(peakAt) + 0.45) * width, peak*1.06 + 0.02*p.Y.Max}}}
	p.Add(peakMark)
	p.Legend.Add("the peak", peakMark)
	peakWords := fmt.Sprintf("Peak: %s attempts/min at +%s.", rateWords(peak), dur(time.Duration(peakAt)*s.step))
	drawWithLegend(c, p, peakWords+" "+stormNote(rep))
	return nil
}

// minSegment is the least height, in points, of a part of a storm's bar
// that holds an attempt: at a million events, a minute's 19 failed
// attempts beside 16,667 delivered ones would be under a pixel, and the
// failures that disabled the endpoint would not show at all.
const minSegment = 2

// stackedBar is one bar of the storm chart: its parts, by outcome style,
// stacked from 0.
type stackedBar struct {
	x0, x1 float64
	parts  []float64
}

// stackedBars draws bars stacked by outcome, each part that holds
// something at least min high, so that no outcome present in a bar is
// drawn away however tall the others are.
type stackedBars struct {
	bars    []stackedBar
	colours []color.Color
	min     vg.Length
}

func (s *stackedBars) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, b := range s.bars {
		x0, x1 := tx(b.x0), tx(b.x1)
		y, sum := ty(0), 0.0
		for k, v := range b.parts {
			if v <= 0 {
				continue
			}
			sum += v
			top := max(ty(sum), y+s.min)
			pts := c.ClipPolygonXY([]vg.Point{{X: x0, Y: y}, {X: x1, Y: y}, {X: x1, Y: top}, {X: x0, Y: top}})
			if len(pts) > 0 {
				c.FillPolygon(s.colours[k], pts)
			}
			y = top
		}
	}
}

// stormTitle says what the storm chart shows and the run's verdict.
func stormTitle(rep *Report) string {
	attempts := 0
	for _, r := range rep.Runs {
		attempts += r.Attempts
	}
	names := runNames(rep)
	if len(rep.Runs) > 3 {
		names = fmt.Sprintf("%d providers", len(rep.Runs))
	}
	return fmt.Sprintf("Retry storm: %s %s of %s", thousands(attempts), plural(attempts, "attempt", "attempts"), names)
}

// stormNote is the note under the legend: what the bars are, and, where
// there was an outage, that the attempts in it were sent and refused, not
// absorbed.
func stormNote(rep *Report) string {
	s := "Attempts per minute as the provider sent them, stacked by outcome."
	if len(rep.Runs) > 1 {
		s = "Every run's attempts per minute, stacked together, each run from its own start: what one endpoint receiving all of them gets."
	}
	for _, r := range rep.Runs {
		if len(outagesOf(r)) > 0 {
			return s + " Attempts during an outage (shaded) were refused: the retries they cause come after it."
		}
	}
	return s
}

// rateWords shows a rate with the precision it needs.
func rateWords(v float64) string {
	if v >= 10 || v == math.Trunc(v) {
		return thousands(int(math.Round(v)))
	}
	return fmt.Sprintf("%.1f", v)
}

// runNames names the runs of a chart: their policies.
func runNames(rep *Report) string {
	names := make([]string, 0, len(rep.Runs))
	for _, r := range rep.Runs {
		names = append(names, r.Policy)
	}
	return strings.Join(names, ", ")
}

// countTicks labels an axis of counts with round numbers, no decimals.
type countTicks struct{}

func (countTicks) Ticks(lo, hi float64) []plot.Tick {
	step := 1.0
	for e := 1.0; e < 1e12 && (hi-lo)/step > 8; e *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if step = m * e; (hi-lo)/step <= 8 {
				break
			}
		}
	}
	var ticks []plot.Tick
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		ticks = append(ticks, plot.Tick{Value: v, Label: thousands(int(math.Round(v)))})
	}
	return ticks
}
