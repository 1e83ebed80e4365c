package report

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// inked is one thing a chart drew, in page coordinates: a text's box, a
// filled shape's box, or a stroked line's segments.
type inked struct {
	text  string
	box   vg.Rectangle
	segs  [][2]vg.Point
	width vg.Length
	col   color.Color
}

// recorder is a vg.Canvas that draws nothing and remembers where every
// text, fill and stroke went, so a test can check the layout a person
// would see.
type recorder struct {
	w, h  vg.Length
	col   color.Color
	width vg.Length
	m     affine
	stack []recState
	texts []inked
	fills []inked
	lines []inked
}

type recState struct {
	col   color.Color
	width vg.Length
	m     affine
}

// affine maps (x, y) to (a x + b y + e, c x + d y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(p vg.Point) vg.Point {
	x, y := float64(p.X), float64(p.Y)
	return vg.Point{X: vg.Length(m.a*x + m.b*y + m.e), Y: vg.Length(m.c*x + m.d*y + m.f)}
}

// then is m after n: points go through n first.
func (m affine) times(n affine) affine {
	return affine{
		a: m.a*n.a + m.b*n.c, b: m.a*n.b + m.b*n.d,
		c: m.c*n.a + m.d*n.c, d: m.c*n.b + m.d*n.d,
		e: m.a*n.e + m.b*n.f + m.e, f: m.c*n.e + m.d*n.f + m.f,
	}
}

func newRecorder(w, h vg.Length) *recorder {
	return &recorder{w: w, h: h, col: color.Black, width: 1, m: affine{a: 1, d: 1}}
}

func (r *recorder) Size() (vg.Length, vg.Length)       { return r.w, r.h }
func (r *recorder) SetLineWidth(w vg.Length)           { r.width = w }
func (r *recorder) SetLineDash([]vg.Length, vg.Length) {}
func (r *recorder) SetColor(c color.Color) {
	if c == nil {
		c = color.Black
	}
	r.col = c
}
func (r *recorder) Rotate(rad float64) {
	s, c := math.Sin(rad), math.Cos(rad)
	r.m = r.m.times(affine{a: c, b: -s, c: s, d: c})
}
func (r *recorder) Translate(p vg.Point) {
	r.m = r.m.times(affine{a: 1, d: 1, e: float64(p.X), f: float64(p.Y)})
}
func (r *recorder) Scale(x, y float64) { r.m = r.m.times(affine{a: x, d: y}) }
func (r *recorder) Push()              { r.stack = append(r.stack, recState{r.col, r.width, r.m}) }
func (r *recorder) Pop() {
	s := r.stack[len(r.stack)-1]
	r.stack = r.stack[:len(r.stack)-1]
	r.col, r.width, r.m = s.col, s.width, s.m
}
func (r *recorder) DrawImage(vg.Rectangle, image.Image) {}

// points lists a path's points, an arc or curve by its box's corners.
func (r *recorder) points(p vg.Path) (segs [][2]vg.Point, box vg.Rectangle) {
	var pts []vg.Point
	var cur, start vg.Point
	first := true
	add := func(p vg.Point) {
		p = r.m.apply(p)
		if first {
			box = vg.Rectangle{Min: p, Max: p}
			first = false
		}
		box.Min.X, box.Min.Y = min(box.Min.X, p.X), min(box.Min.Y, p.Y)
		box.Max.X, box.Max.Y = max(box.Max.X, p.X), max(box.Max.Y, p.Y)
		pts = append(pts, p)
	}
	for _, c := range p {
		switch c.Type {
		case vg.MoveComp:
			cur, start = c.Pos, c.Pos
			if !nan(c.Pos) {
				add(c.Pos)
			}
		case vg.LineComp:
			if nan(c.Pos) || nan(cur) {
				cur = c.Pos
				continue // draws nothing
			}
			segs = append(segs, [2]vg.Point{r.m.apply(cur), r.m.apply(c.Pos)})
			cur = c.Pos
			add(c.Pos)
		case vg.ArcComp:
			for _, d := range []vg.Point{{X: -c.Radius, Y: -c.Radius}, {X: c.Radius, Y: c.Radius}, {X: -c.Radius, Y: c.Radius}, {X: c.Radius, Y: -c.Radius}} {
				add(c.Pos.Add(d))
			}
			// A ring is its box: strokes of arcs are checked as boxes.
			segs = append(segs, [2]vg.Point{r.m.apply(c.Pos.Add(vg.Point{X: -c.Radius, Y: -c.Radius})), r.m.apply(c.Pos.Add(vg.Point{X: c.Radius, Y: c.Radius}))})
			segs = append(segs, [2]vg.Point{r.m.apply(c.Pos.Add(vg.Point{X: -c.Radius, Y: c.Radius})), r.m.apply(c.Pos.Add(vg.Point{X: c.Radius, Y: -c.Radius}))})
			cur = c.Pos
		case vg.CurveComp:
			for _, k := range c.Control {
				add(k)
			}
			segs = append(segs, [2]vg.Point{r.m.apply(cur), r.m.apply(c.Pos)})
			cur = c.Pos
			add(c.Pos)
		case vg.CloseComp:
			segs = append(segs, [2]vg.Point{r.m.apply(cur), r.m.apply(start)})
			cur = start
		}
	}
	return segs, box
}

func (r *recorder) Stroke(p vg.Path) {
	if r.width <= 0 {
		return
	}
	segs, box := r.points(p)
	r.lines = append(r.lines, inked{segs: segs, box: box, width: r.width, col: r.col})
}

func (r *recorder) Fill(p vg.Path) {
	_, box := r.points(p)
	r.fills = append(r.fills, inked{box: box, col: r.col})
}

func (r *recorder) FillString(f font.Face, pt vg.Point, s string) {
	if strings.TrimSpace(s) == "" || f.Font.Size == 0 {
		return
	}
	// The ink of the text, not the font's line box: capitals and digits
	// reach about 0.72 em above the baseline (the ascent is line spacing,
	// 0.9 em), and only some letters go below it.
	e := f.Extents()
	w := f.Width(s)
	up, down := f.Font.Size*0.74, vg.Length(0)
	if strings.ContainsAny(s, "gjpqy(),;[]{}|_") {
		down = e.Descent
	}
	corners := []vg.Point{{X: pt.X, Y: pt.Y - down}, {X: pt.X + w, Y: pt.Y - down}, {X: pt.X, Y: pt.Y + up}, {X: pt.X + w, Y: pt.Y + up}}
	var box vg.Rectangle
	for i, c := range corners {
		c = r.m.apply(c)
		if i == 0 {
			box = vg.Rectangle{Min: c, Max: c}
		}
		box.Min.X, box.Min.Y = min(box.Min.X, c.X), min(box.Min.Y, c.Y)
		box.Max.X, box.Max.Y = max(box.Max.X, c.X), max(box.Max.Y, c.Y)
	}
	r.texts = append(r.texts, inked{text: s, box: box, col: r.col})
}

func nan(p vg.Point) bool { return math.IsNaN(float64(p.X)) || math.IsNaN(float64(p.Y)) }

// ink says whether a colour is something a reader reads (a mark, a line,
// a band) rather than a background: white, light grey grid lines and
// translucent shading are not.
func ink(c color.Color) bool {
	r, g, b, a := c.RGBA()
	if a < 0x60<<8 {
		return false
	}
	return !(r >= 0xd0<<8 && g >= 0xd0<<8 && b >= 0xd0<<8)
}

// slack is how far two boxes may touch: antialiasing, not overlap.
const slack = vg.Length(0.75)

func overlaps(a, b vg.Rectangle) bool {
	return a.Min.X+slack < b.Max.X && b.Min.X+slack < a.Max.X && a.Min.Y+slack < b.Max.Y && b.Min.Y+slack < a.Max.Y
}

// crosses says whether the segment from p to q, w wide, passes through box.
func crosses(box vg.Rectangle, p, q vg.Point, w vg.Length) bool {
	box = vg.Rectangle{Min: vg.Point{X: box.Min.X - w/2 + slack, Y: box.Min.Y - w/2 + slack}, Max: vg.Point{X: box.Max.X + w/2 - slack, Y: box.Max.Y + w/2 - slack}}
	// Liang–Barsky clipping: does any part of the segment lie in box?
	t0, t1 := 0.0, 1.0
	dx, dy := float64(q.X-p.X), float64(q.Y-p.Y)
	for _, e := range [][2]float64{{-dx, float64(p.X - box.Min.X)}, {dx, float64(box.Max.X - p.X)}, {-dy, float64(p.Y - box.Min.Y)}, {dy, float64(box.Max.Y - p.Y)}} {
		pp, qq := e[0], e[1]
		if pp == 0 {
			if qq < 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 > t1 {
			return false
		}
	}
	return true
}

// collisions lists where a text overlaps another text, or a mark: a filled
// shape or a stroked line in a colour a reader reads.
func (r *recorder) collisions() []string {
	var out []string
	for i, t := range r.texts {
		if t.box.Min.X < 0 || t.box.Min.Y < 0 || t.box.Max.X > r.w || t.box.Max.Y > r.h {
			out = append(out, fmt.Sprintf("text %q at %.0f,%.0f–%.0f,%.0f runs off the %.0f×%.0f image", t.text, t.box.Min.X, t.box.Min.Y, t.box.Max.X, t.box.Max.Y, r.w, r.h))
		}
		for _, u := range r.texts[i+1:] {
			if overlaps(t.box, u.box) {
				out = append(out, fmt.Sprintf("text %q overlaps text %q", t.text, u.text))
			}
		}
		for _, f := range r.fills {
			if ink(f.col) && overlaps(t.box, f.box) {
				out = append(out, fmt.Sprintf("text %q overlaps a filled mark at %.0f,%.0f", t.text, f.box.Min.X, f.box.Min.Y))
				break
			}
		}
		for _, l := range r.lines {
			if !ink(l.col) {
				continue
			}
			hit := false
			for _, s := range l.segs {
				if crosses(t.box, s[0], s[1], l.width) {
					hit = true
					break
				}
			}
			if hit {
				out = append(out, fmt.Sprintf("text %q at %.0f,%.0f–%.0f,%.0f is crossed by a line from %.0f,%.0f to %.0f,%.0f", t.text, t.box.Min.X, t.box.Min.Y, t.box.Max.X, t.box.Max.Y, l.box.Min.X, l.box.Min.Y, l.box.Max.X, l.box.Max.Y))
				break
			}
		}
	}
	return out
}

// layoutRun is a modelled run of events for the layout test.
func layoutRun(t *testing.T, providers []string, scenario string, events int) *Report {
	t.Helper()
	sc := scenariotest.Lookup(t, scenario)
	agg := NewAggregator(WithTimeline(-1), WithSpoolDir(t.TempDir()))
	t.Cleanup(func() { agg.Close() })
	for _, name := range providers {
		pol := policytest.Lookup(t, name)
		if _, err := simulator.Run(context.Background(), simulator.Config{
			Policy: pol, Scenario: sc, DryRun: true, Events: events, Seed: 1, RunID: "layout", Sink: agg.Add,
		}); err != nil {
			t.Fatal(err)
		}
	}
	return &Report{Runs: agg.Runs()}
}

// drawOn draws chart on a recorder the size of the PNG charts.
func drawOn(t *testing.T, rep *Report, opts ChartOptions) *recorder {
	t.Helper()
	w, h := opts.size()
	rec := newRecorder(w, h)
	c := draw.New(rec)
	var err error
	switch opts.Chart {
	case ChartTTL:
		err = drawTTLChart(c, rep)
	case ChartStorm:
		err = drawStorm(c, rep)
	default:
		err = drawTimeline(c, rep, opts)
	}
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// No chart draws a label over another, over a mark, across a line or off
// the image, at any size of run and with every provider.
func TestChartLabelsClear(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 5,000-event charts")
	}
	all := policies.NamedDefaults()
	cases := []struct {
		providers []string
		scenario  string
		events    int
	}{
		{[]string{"stripe"}, "flaky-network", 5},
		{[]string{"shopify"}, "outage-6h", 20},
		{[]string{"stripe"}, "outage", 500},
		{[]string{"stripe"}, "crash-restart", 10},
		{[]string{"github"}, "flaky-network", 5000},
		{all, "flaky-network", 20},
	}
	for _, tc := range cases {
		rep := layoutRun(t, tc.providers, tc.scenario, tc.events)
		for _, chart := range Charts() {
			name := fmt.Sprintf("%s/%d events/%s", strings.Join(tc.providers, ","), tc.events, chart)
			if len(tc.providers) > 3 {
				name = fmt.Sprintf("all providers/%d events/%s", tc.events, chart)
			}
			t.Run(name, func(t *testing.T) {
				rec := drawOn(t, rep, ChartOptions{Chart: chart})
				if len(rec.texts) == 0 || len(rec.lines) == 0 {
					t.Fatalf("recorded %d texts and %d lines: the recorder saw nothing", len(rec.texts), len(rec.lines))
				}
				for _, c := range rec.collisions() {
					t.Error(c)
				}
			})
		}
	}
}

// The check itself finds a label drawn over a mark, across a line, or off
// the image.
func TestChartLabelsClearCanFail(t *testing.T) {
	rec := newRecorder(100, 100)
	c := draw.New(rec)
	sty := draw.GlyphStyle{Color: colGreen, Radius: 5, Shape: draw.CircleGlyph{}}
	c.DrawGlyph(sty, vg.Point{X: 50, Y: 50})
	ts := drawTextStyle()
	c.FillText(ts, vg.Point{X: 48, Y: 48}, "label")
	if len(rec.collisions()) == 0 {
		t.Error("a label over a glyph is not found")
	}
	rec = newRecorder(100, 100)
	c = draw.New(rec)
	c.StrokeLine2(draw.LineStyle{Color: colRed, Width: 2}, 10, 0, 10, 100)
	c.FillText(ts, vg.Point{X: 5, Y: 50}, "label")
	if len(rec.collisions()) == 0 {
		t.Error("a line across a label is not found")
	}
	rec = newRecorder(100, 100)
	c = draw.New(rec)
	c.FillText(ts, vg.Point{X: 80, Y: 50}, "a label too long for the image")
	if len(rec.collisions()) == 0 {
		t.Error("a label running off the image is not found")
	}
	rec = newRecorder(100, 100)
	c = draw.New(rec)
	c.StrokeLine2(draw.LineStyle{Color: colRed, Width: 2}, 10, 0, 10, 100)
	c.FillText(ts, vg.Point{X: 20, Y: 50}, "label")
	if cs := rec.collisions(); len(cs) != 0 {
		t.Errorf("a label clear of a line: %s", cs)
	}
}

func drawTextStyle() text.Style {
	return text.Style{Font: sans(noteSize), Handler: plot.DefaultTextHandler, Color: colBlack}
}

// The TTL chart's curves sit on their values: at every TTL, the share of
// duplicates that TTL lets through, with no offset to tell runs apart
// (each run has a panel of its own), and no line for a run with no
// duplicate at all.
func TestTTLCurvesOnTheirValues(t *testing.T) {
	rep := layoutRun(t, policies.NamedDefaults(), "flaky-network", 50)
	xs := []time.Duration{time.Second, time.Minute, 5 * time.Minute, time.Hour, 24 * time.Hour, 7 * 24 * time.Hour}
	for _, r := range rep.Runs {
		ta := r.TTL(rep.TTLs)
		obs, worst := ttlCurves(r, ta, xs)
		total := r.DuplicatesAfterKey()
		if total == 0 && len(obs) > 0 {
			t.Errorf("%s: a line for a run with no duplicate", r.Policy)
		}
		// Each flat part starts at its TTL's value, and each drop ends at
		// the next TTL's.
		check := func(name string, line [][2]float64, value func(time.Duration) float64) {
			for i, pt := range line {
				x := time.Duration(pt[0] * float64(time.Second))
				flatFrom := i+1 < len(line) && line[i+1][0] != pt[0]
				dropTo := i > 0 && line[i-1][0] == pt[0]
				if (flatFrom || dropTo) && pt[1] != value(x) {
					t.Errorf("%s: %s's line at %s is at %v%%, its value is %v%%", r.Policy, name, x, pt[1], value(x))
				}
			}
		}
		check("this run", obs, func(x time.Duration) float64 { return 100 * float64(r.LeakedAt(x)) / float64(total) })
		check("the worst case", worst, func(x time.Duration) float64 { return 100 * float64(r.WorstLeakedAt(x)) / float64(ta.Retries) })
	}
}

// Each TTL curve is stroked as one path, so that the worst case's dashes
// run along its steps and it reads as dashed beside this run's solid line:
// a stroke for each step began the dash again every few pixels, and the
// dashed line came out solid.
func TestTTLCurvesAreOnePathEach(t *testing.T) {
	rep := layoutRun(t, []string{"stripe"}, "flaky-network", 50)
	if rep.Runs[0].DuplicatesAfterKey() == 0 {
		t.Fatal("the run has no duplicate: this run's line is not drawn")
	}
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTTL})
	strokes := map[vg.Length]int{}
	for _, l := range rec.lines {
		if l.col == runColour(0) {
			strokes[l.width]++
		}
	}
	if n := strokes[vg.Points(3.5)]; n != 1 {
		t.Errorf("this run's line took %d strokes, want 1", n)
	}
	if n := strokes[vg.Points(2.5)]; n != 1 {
		t.Errorf("the worst case's dashed line took %d strokes, want 1", n)
	}
}

// A title wider than the plot beside the legend (a long verdict line) is
// drawn smaller, whole, rather than run off the image's left edge.
func TestLongTitleStaysOnTheImage(t *testing.T) {
	rec := newRecorder(1152, 648)
	c := draw.New(rec)
	p := newPlot("stripe, shopify, github · flaky-network · seed 1 · 32 events: delivered 32\n"+
		"NOT IDEMPOTENT: 5 events processed more than once (worst of the runs) · recommend TTL 4d and more words", "x", "")
	p.Add(plotter.NewGrid())
	p.Legend.Add("delivered (2xx in time)")
	drawWithLegend(c, p, "a note")
	var title []inked
	for _, tx := range rec.texts {
		if strings.HasPrefix(tx.text, "NOT IDEMPOTENT") || strings.HasPrefix(tx.text, "stripe, shopify") {
			title = append(title, tx)
		}
	}
	if len(title) != 2 {
		t.Fatalf("found %d of the title's 2 lines among %d texts", len(title), len(rec.texts))
	}
	for _, c := range rec.collisions() {
		t.Error(c)
	}
}

// A note with one word wider than the legend column (a long policy name
// from a config file) keeps its other lines as wide as the column holds,
// rather than breaking the whole note into lines of a few characters.
func TestNoteWithALongWordKeepsItsLines(t *testing.T) {
	rec := newRecorder(1152, 648)
	c := draw.New(rec)
	p := newPlot("title", "x", "")
	p.Add(plotter.NewGrid())
	p.Legend.Add("delivered (2xx in time)")
	note := "Each row is one event's attempts; acme-internal-billing-webhooks-production-v2's endpoint was disabled, and the blue band is its dedup key, kept for 4d from the first 2xx the handler gave."
	drawWithLegend(c, p, note)
	lines := 0
	for _, tx := range rec.texts {
		if tx.text != "title" && strings.Contains(note, tx.text) {
			lines++
		}
	}
	if lines == 0 || lines > 8 {
		t.Errorf("the note took %d lines, want at most 8 (its words fill 8 lines of the column, the long word on one of its own; narrowed to ten characters a line, 19)", lines)
	}
}

// A "×N" note for a mark at the right edge of the plot goes on the left of
// the mark, clear of the key's arrow there, not over the two of them.
func TestReprocessedNoteAtTheRightEdge(t *testing.T) {
	rec := newRecorder(1152, 648)
	c := draw.New(rec)
	p := newPlot("", "", "")
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 100, 0, 1
	n := &rowNotes{text: drawTextStyle()}
	n.add(99, 0.5, "×3")
	n.add(10, 0.5, "×2")
	p.Add(n)
	p.Draw(c)
	dc := p.DataCanvas(c)
	at := func(x float64) vg.Length { return dc.Min.X + vg.Length(x/100)*(dc.Max.X-dc.Min.X) }
	for _, tx := range rec.texts {
		switch tx.text {
		case "×3":
			if tx.box.Max.X > at(99) {
				t.Errorf("the note of a mark at the right edge ends at %.0f, past the mark at %.0f", tx.box.Max.X, at(99))
			}
		case "×2":
			if tx.box.Min.X < at(10) {
				t.Errorf("the note of a mark with room on its right starts at %.0f, before the mark at %.0f", tx.box.Min.X, at(10))
			}
		}
	}
	if len(rec.texts) < 2 {
		t.Fatalf("recorded %d texts, want the two notes", len(rec.texts))
	}
}

// On a logarithmic axis of time since each event's first attempt, a run
// whose events were each delivered at their first attempt still draws
// every event's dedup key, to the right edge with its arrow: with every
// mark at 0 the bands ended where they began and the arrows pointed at
// the attempts from the left edge.
func TestLogTimelineOfSingleAttemptsDrawsTheKeys(t *testing.T) {
	rep := layoutRun(t, []string{"stripe"}, "happy", 5)
	if rep.Runs[0].Attempts != 5 {
		t.Fatalf("%d attempts, want 5: one for each event", rep.Runs[0].Attempts)
	}
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTimeline, Log: true})
	key := fade(colSky, 110)
	var bands []inked
	for _, f := range rec.fills {
		if f.col == key {
			bands = append(bands, f)
		}
	}
	// The legend's swatch is one of them.
	if len(bands) != 6 {
		t.Fatalf("%d fills in the key's colour, want 5 bands and the legend's swatch", len(bands))
	}
	w, _ := ChartOptions{}.size()
	for _, b := range bands[:5] {
		if b.box.Max.X-b.box.Min.X < w/3 {
			t.Errorf("a key band from %.0f to %.0f: want it across the plot", b.box.Min.X, b.box.Max.X)
		}
	}
}

// The note of a log-time timeline says outages are shaded on each row only
// when the run had one to shade.
func TestLogTimelineNoteSpeaksOfOutagesOnlyWhenShaded(t *testing.T) {
	for _, c := range []struct {
		scenario string
		outage   bool
	}{{"happy", false}, {"flaky-network", false}, {"outage", true}} {
		rep := layoutRun(t, []string{"stripe"}, c.scenario, 10)
		rec := drawOn(t, rep, ChartOptions{Chart: ChartTimeline, Log: true})
		var words []string
		for _, tx := range rec.texts {
			words = append(words, tx.text)
		}
		said := strings.Contains(strings.Join(words, " "), "outages are shaded")
		if said != c.outage {
			t.Errorf("%s: the note says outages are shaded: %v, want %v", c.scenario, said, c.outage)
		}
	}
}

// A storm bar's part that holds an attempt is drawn however tall the rest
// of the bar: a minute's 19 failed attempts beside 16,667 delivered ones,
// at a million events, fell under a pixel and vanished from the chart.
func TestStormBarShowsEveryOutcomeItHolds(t *testing.T) {
	rec := newRecorder(1152, 648)
	c := draw.New(rec)
	p := newPlot("", "", "")
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 10, 0, 20000
	failed := color.RGBA{0x60, 0x60, 0x60, 0xff}
	p.Add(&stackedBars{min: vg.Points(minSegment), colours: []color.Color{colGreen, failed},
		bars: []stackedBar{{x0: 1, x1: 2, parts: []float64{16667, 19}}, {x0: 3, x1: 4, parts: []float64{0, 19}}}})
	p.Draw(c)
	var heights []vg.Length
	for _, f := range rec.fills {
		if f.col == failed {
			heights = append(heights, f.box.Max.Y-f.box.Min.Y)
		}
	}
	if len(heights) != 2 {
		t.Fatalf("%d parts of failed attempts drawn, want 2", len(heights))
	}
	for _, h := range heights {
		if h < vg.Points(minSegment)-0.01 {
			t.Errorf("a part of 19 attempts drawn %.2fpt tall, want at least %dpt", h, minSegment)
		}
	}
}

// The storm chart of a run draws every part of its bars that holds an
// attempt at least minSegment tall: at 20,000 events the late retries, a
// few a minute beside the peak's hundreds, were bars under a pixel.
func TestStormChartDrawsEveryPartItHolds(t *testing.T) {
	rep := layoutRun(t, []string{"stripe"}, "flaky-network", 20000)
	rec := drawOn(t, rep, ChartOptions{Chart: ChartStorm})
	outcome := map[color.Color]bool{}
	for _, st := range outcomeStyles {
		outcome[st.colour] = true
	}
	parts := 0
	for _, f := range rec.fills {
		if !outcome[f.col] {
			continue
		}
		parts++
		if h := f.box.Max.Y - f.box.Min.Y; h < vg.Points(minSegment)-0.01 {
			t.Errorf("a part of a bar at %.0f drawn %.2fpt tall, want at least %dpt", f.box.Min.X, h, minSegment)
		}
	}
	if parts < 50 {
		t.Fatalf("%d parts of bars drawn: not the chart the test is about", parts)
	}
}

// A log-time timeline draws no line for a restart of the handler (it is a
// moment of the run, not of each event): its note says when they were, as
// it says when the endpoint was disabled.
func TestLogTimelineNoteSaysWhenTheHandlerRestarted(t *testing.T) {
	rep := layoutRun(t, []string{"stripe"}, "crash-restart", 10)
	r := rep.Runs[0]
	if len(r.Restarts) == 0 {
		t.Fatal("no restart: not the run the test is about")
	}
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTimeline, Log: true})
	var words []string
	for _, tx := range rec.texts {
		words = append(words, tx.text)
	}
	note := strings.Join(words, " ")
	for _, at := range r.Restarts {
		if !strings.Contains(note, "+"+policies.FormatDuration(at)) {
			t.Errorf("the note does not say the handler was restarted at +%s: %s", policies.FormatDuration(at), note)
		}
	}
	if !strings.Contains(note, "handler was restarted") {
		t.Errorf("the note does not say the handler was restarted: %s", note)
	}
}

// An event the provider never sent, dropped in its own outage, is marked
// on its row when it was due, and the legend says why: its row was empty,
// with no word of the events lost.
func TestTimelineMarksEventsTheProviderDropped(t *testing.T) {
	rep := layoutRun(t, []string{"slack"}, "slack-2025-02-26", 40)
	sh, err := rep.Runs[0].Sample(DefaultChartRows)
	if err != nil {
		t.Fatal(err)
	}
	var due []float64
	for _, ev := range sh.Events {
		if ev.Fate == simulator.FateDropped {
			if ev.Due.IsZero() {
				t.Fatalf("%s was dropped, and its timeline does not say when it was due", ev.ID)
			}
			due = append(due, ev.Due.Sub(rep.Runs[0].Start).Seconds())
		}
	}
	if len(due) < 2 {
		t.Fatalf("%d dropped events among the rows: not the run the test is about", len(due))
	}
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTimeline})
	var xs []vg.Length
	for _, l := range rec.lines {
		if l.col == colVermilion && l.width == vg.Points(2.5) {
			xs = append(xs, (l.box.Min.X+l.box.Max.X)/2)
		}
	}
	// One mark a dropped row, and the legend's.
	if len(xs) != len(due)+1 {
		t.Fatalf("%d marks of a dropped event, want %d and the legend's", len(xs), len(due))
	}
	marks := xs[:len(due)]
	for i := 1; i < len(marks); i++ {
		if (marks[i] > marks[i-1]) != (due[i] > due[i-1]) && due[i] != due[i-1] {
			t.Errorf("dropped events due at +%.0fs and +%.0fs are marked at %.0f and %.0f: not at their times", due[i-1], due[i], marks[i-1], marks[i])
		}
	}
	said := false
	for _, tx := range rec.texts {
		said = said || tx.text == "never sent: the provider's own outage"
	}
	if !said {
		t.Error("the legend does not say why the events were never sent")
	}
}
