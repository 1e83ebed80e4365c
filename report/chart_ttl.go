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

// drawTTLChart draws, for each run, the share of duplicate deliveries a
// dedup TTL lets through against the TTL: solid for this run, dashed for
// the policy's worst case; each run's recommendation is marked.
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
	r0 := rep.Runs[0]
	p := newPlot(fmt.Sprintf("Duplicates a dedup TTL lets through · %s · seed %d", r0.Scenario, r0.Seed),
		"dedup TTL (time a key is kept after the handler first answered 2xx)", "duplicate deliveries let through (%)")
	p.X.Min, p.X.Max = lo.Seconds(), hi.Seconds()
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = ttlTicks{}
	// Room above 100% for the recommendation labels, one line per run.
	top := 104 + 7*float64(len(rep.Runs))
	p.Y.Min, p.Y.Max = -2, top
	p.Y.Tick.Marker = plot.ConstantTicks([]plot.Tick{{Value: 0, Label: "0"}, {Value: 25, Label: "25%"}, {Value: 50, Label: "50%"}, {Value: 75, Label: "75%"}, {Value: 100, Label: "100%"}})

	choices := &segments{style: draw.LineStyle{Color: color.Gray{Y: 0xcc}, Width: vg.Points(1)}}
	for _, ttl := range rep.ttlChoices() {
		choices.segs = append(choices.segs, [2][2]float64{{ttl.Seconds(), -2}, {ttl.Seconds(), 101}})
	}
	p.Add(choices)

	const samples = 400
	xs := make([]time.Duration, samples)
	for i := range xs {
		f := float64(i) / (samples - 1)
		xs[i] = time.Duration(math.Exp(math.Log(float64(lo)) + f*(math.Log(float64(hi))-math.Log(float64(lo)))))
	}
	// Runs whose curves coincide (all at 100% or at 0) would hide one
	// another: each run's curves are drawn a little apart from the next's.
	n := len(rep.Runs)
	apart := func(i int) float64 { return (float64(i) - float64(n-1)/2) * 0.9 }
	var labels []*vmark
	for i, r := range rep.Runs {
		col := runColour(i)
		dy := apart(i)
		obs := &segments{style: draw.LineStyle{Color: col, Width: vg.Points(3.5)}}
		worst := &segments{style: draw.LineStyle{Color: col, Width: vg.Points(2.5), Dashes: []vg.Length{vg.Points(10), vg.Points(6)}}}
		total := r.DuplicatesAfterKey()
		t := r.TTL(rep.TTLs)
		pct := func(n, of int) float64 {
			if of == 0 {
				return 0
			}
			return 100 * float64(n) / float64(of)
		}
		for j := 1; j < len(xs); j++ {
			a, b := xs[j-1], xs[j]
			obs.segs = append(obs.segs, step(a, b, pct(r.LeakedAt(a), total)+dy, pct(r.LeakedAt(b), total)+dy)...)
			worst.segs = append(worst.segs, step(a, b, pct(r.WorstLeakedAt(a), t.Retries)+dy, pct(r.WorstLeakedAt(b), t.Retries)+dy)...)
		}
		p.Add(worst, obs)
		p.Legend.Add(fmt.Sprintf("%s: this run (%d dup.)", r.Policy, total), obs)
		p.Legend.Add(r.Policy+": worst case", worst)
		line := &vmark{
			x: t.Recommended.Seconds(), label: r.Policy + ": recommend " + dur(t.Recommended), row: i,
			style: draw.LineStyle{Color: col, Width: vg.Points(2), Dashes: []vg.Length{vg.Points(2), vg.Points(4)}},
			text:  text.Style{Color: col, Font: boldSans(noteSize), Handler: p.TextHandler},
		}
		label := *line
		line.label, label.labelOnly = "", true
		p.Add(line)
		labels = append(labels, &label)
	}
	// The labels go on top of every line, on their own background, so no
	// other provider's line runs through one.
	for _, l := range labels {
		p.Add(l)
	}
	note := "Solid: duplicate arrivals in this run that came after their key expired. Dashed: worst case, " +
		"the handler did the work at the first attempt and every answer was lost, so each retry of the schedule arrives. " +
		"Dotted: the recommended TTL. Grey: the TTL choices compared."
	if n > 1 {
		note += " Each provider's curves are drawn a hair apart, so none hides another."
	}
	drawWithLegend(c, p, note)
	return nil
}

// step returns the segments from (a, ya) to (b, yb) as a step: flat, then
// straight down at b.
func step(a, b time.Duration, ya, yb float64) [][2][2]float64 {
	out := [][2][2]float64{{{a.Seconds(), ya}, {b.Seconds(), ya}}}
	if yb != ya {
		out = append(out, [2][2]float64{{b.Seconds(), ya}, {b.Seconds(), yb}})
	}
	return out
}

// ttlTicks labels a logarithmic axis of TTL seconds.
type ttlTicks struct{}

var ttlTickValues = []time.Duration{
	time.Second, 10 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 3 * time.Hour, 8 * time.Hour,
	24 * time.Hour, 3 * 24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 90 * 24 * time.Hour, 365 * 24 * time.Hour,
}

func (ttlTicks) Ticks(lo, hi float64) []plot.Tick {
	var out []plot.Tick
	for _, d := range ttlTickValues {
		if v := d.Seconds(); v >= lo*0.999 && v <= hi*1.001 {
			out = append(out, plot.Tick{Value: v, Label: dur(d)})
		}
	}
	return out
}
