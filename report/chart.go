package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/retrysim/retrysim/policies"
)

// Charts a report can draw.
const (
	ChartTimeline = "timeline"
	ChartTTL      = "ttl"
)

// Charts lists the charts of a run report.
func Charts() []string {
	return []string{ChartTimeline, ChartTTL, ChartStorm}
}

// ErrByProvider is returned for a timeline with one row per provider: a
// row holding every event of a run merged their marks and dedup bands into
// solid bars. The storm chart compares runs over time; the timeline's rows
// per event show a sample of each run with every kind of fate.
var ErrByProvider = errors.New("report: a timeline row per provider is not drawn: every event of a run on one row merges their marks into solid bars; the storm chart compares the runs' attempts over time, and the timeline's rows per event show a sample of each run with every kind of fate")

// Rows of the timeline chart.
const (
	ByEvent    = "event"
	ByProvider = "provider"
)

// ChartOptions say which chart to draw and how.
type ChartOptions struct {
	// Chart is ChartTimeline (default), ChartTTL or ChartStorm.
	Chart string
	// By is ByEvent (default: one row per event) or ByTenant (one row
	// per tenant of a run of several) for the timeline; ByProvider is
	// refused (ErrByProvider).
	By string
	// Log puts virtual time on a logarithmic axis.
	Log bool
	// TTL is the dedup window the timeline draws from each event's key;
	// zero means the run's recommendation.
	TTL time.Duration
	// Rows caps the timeline's event rows; 0 means DefaultChartRows.
	Rows int
	// Width and Height are the picture's size; zero means 16×9 inches,
	// 1600×900 pixels in PNG.
	Width, Height vg.Length
}

// DefaultChartRows is how many events the timeline chart shows by default.
const DefaultChartRows = 24

// chartDPI makes a 16×9 inch chart 1600×900 pixels.
const chartDPI = 100

func (o ChartOptions) size() (vg.Length, vg.Length) {
	w, h := o.Width, o.Height
	if w == 0 {
		w = 16 * vg.Inch
	}
	if h == 0 {
		h = 9 * vg.Inch
	}
	return w, h
}

// WriteChart draws the report's chart (opts.Chart) as PNG or SVG to w.
func WriteChart(w io.Writer, rep *Report, format string, opts ChartOptions) error {
	switch opts.Chart {
	case ChartTTL:
		return render(w, format, opts, func(c draw.Canvas) error { return drawTTLChart(c, rep) })
	case ChartStorm:
		return render(w, format, opts, func(c draw.Canvas) error { return drawStorm(c, rep) })
	case "", ChartTimeline:
		switch opts.By {
		case ByProvider:
			return ErrByProvider
		case ByTenant:
			return render(w, format, opts, func(c draw.Canvas) error { return drawTenants(c, rep, opts) })
		}
		return render(w, format, opts, func(c draw.Canvas) error { return drawTimeline(c, rep, opts) })
	}
	return fmt.Errorf("%w: no chart %q (valid: %s)", ErrFormat, opts.Chart, strings.Join(Charts(), ", "))
}

// render makes a canvas for format, lets drawFn draw on it and writes it.
func render(w io.Writer, format string, opts ChartOptions, drawFn func(draw.Canvas) error) error {
	width, height := opts.size()
	var cw vg.CanvasWriterTo
	switch format {
	case FormatPNG:
		cw = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(chartDPI))}
	case FormatSVG:
		// Fonts by name, not embedded (which made every file over a
		// megabyte): see svgFonts for the names viewers substitute.
		cw = &svgFonts{vgsvg.NewWith(vgsvg.UseWH(width, height))}
	default:
		return fmt.Errorf("%w: %q is not a picture format (valid: png, svg)", ErrFormat, format)
	}
	c := draw.New(cw)
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	if err := drawFn(c); err != nil {
		return err
	}
	return buffered(w, func(w io.Writer) error {
		_, err := cw.WriteTo(w)
		return err
	})
}

// svgFonts writes an SVG whose text names its font with fallbacks: Liberation
// Sans has Arial's metrics, so where it is not installed the text takes the
// same width in Arial or Helvetica, and legends and titles are not clipped.
type svgFonts struct{ *vgsvg.Canvas }

func (s *svgFonts) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	if _, err := s.Canvas.WriteTo(&buf); err != nil {
		return 0, err
	}
	out := xmlSafe(bytes.ReplaceAll(buf.Bytes(), []byte("font-family:Liberation Sans;"), []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")))
	n, err := w.Write(out)
	return int64(n), err
}

// Font sizes, chosen to stay readable at 1600×900 and on a slide.
const (
	titleSize  = 22
	labelSize  = 17
	tickSize   = 15
	legendSize = 15
	noteSize   = 14
	// minNoteSize is the least a note shrinks to, to fit its column.
	minNoteSize = 10
)

func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}

func boldSans(size vg.Length) font.Font {
	f := sans(size)
	f.Weight = xfont.WeightBold
	return f
}

// newPlot returns a plot with the chart style: sans fonts, readable sizes.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = boldSans(titleSize)
	p.Title.Padding = vg.Points(12)
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = sans(labelSize)
		a.Tick.Label.Font = sans(tickSize)
		a.Label.Padding = vg.Points(6)
	}
	p.Legend.TextStyle.Font = sans(legendSize)
	p.Legend.ThumbnailWidth = vg.Points(28)
	return p
}

// drawWithLegend draws p on the left of c and its legend in a column on
// the right, so the legend never hides data.
func drawWithLegend(c draw.Canvas, p *plot.Plot, note string) {
	lg := p.Legend
	p.Legend = plot.NewLegend() // drawn beside the plot, not inside it
	lw := legendWidth(&lg)
	pad := vg.Points(16)
	// gonum places the x label's padding at the arithmetic middle of the
	// axis, which on a logarithmic axis is near its right end and squeezes
	// the data area; the label is drawn here instead, under the plot.
	xl := p.X.Label
	p.X.Label.Text = ""
	strip := vg.Points(labelSize * 2)
	area := draw.Crop(c, pad, -(lw + 2*pad), pad+strip, -pad)
	fitTitle(p, area.Max.X-area.Min.X)
	p.Draw(area)
	if xl.Text != "" {
		sty := xl.TextStyle
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
		dc := p.DataCanvas(area)
		c.FillText(sty, vg.Point{X: (dc.Min.X + dc.Max.X) / 2, Y: c.Min.Y + pad}, xl.Text)
	}
	drawLegendColumn(c, &lg, lw, pad, note)
}

// tooWide says whether a line of several words among lines is wider
// than lw in sty: narrower lines would help it.
func tooWide(sty text.Style, lines []string, lw vg.Length) bool {
	for _, l := range lines {
		if strings.Contains(l, " ") && sty.Width(l) > lw {
			return true
		}
	}
	return false
}

// fitTitle shrinks a title's font until its widest line fits width: the
// title is centred over the plot beside the legend, and a long verdict
// line would run off the image's left edge ("…EMPOTENT"). It never goes
// below the notes' size.
func fitTitle(p *plot.Plot, width vg.Length) {
	sty := &p.Title.TextStyle
	if widest := sty.Width(p.Title.Text); widest > width {
		sty.Font.Size = max(sty.Font.Size*width/widest, noteSize)
	}
}

// drawLegendColumn draws lg in a column of width lw at the right of c,
// under the title, and note, wrapped, below it.
func drawLegendColumn(c draw.Canvas, lg *plot.Legend, lw, pad vg.Length, note string) {
	right := draw.Crop(c, c.Max.X-c.Min.X-lw-pad, -pad, pad, -pad-vg.Points(titleSize*2.2))
	lg.Top, lg.Left = true, true
	lg.Padding = vg.Points(5)
	lg.Draw(right)
	if note == "" {
		return
	}
	sty := lg.TextStyle
	sty.Color = color.Gray{Y: 0x55}
	top := lg.Rectangle(right).Min.Y
	// The note's font shrinks until its lines fit between the legend and
	// the bottom of the image (a run of every provider has a long one).
	var lines []string
	for size := vg.Length(noteSize); ; size-- {
		sty.Font = sans(size)
		// As many characters a line as the column holds at this font's
		// average width, then fewer while a line of several words is
		// wider than the column (a single word too wide stays whole).
		perChar := sty.Width(note) / vg.Length(max(1, utf8.RuneCountInString(note)))
		for n := int(lw / perChar); ; n-- {
			lines = WrapWords(note, n)
			if n <= 10 || !tooWide(sty, lines, lw) {
				break
			}
		}
		if top-size*(2+1.3*vg.Length(len(lines)-1)) >= c.Min.Y+pad || size <= minNoteSize {
			break
		}
	}
	lead := sty.Font.Size * 1.3
	y := top - sty.Font.Size*2
	for _, line := range lines {
		right.FillText(sty, vg.Point{X: right.Min.X, Y: y}, line)
		y -= lead
	}
}

func legendWidth(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	return max(r.Max.X-r.Min.X, vg.Points(200)) + vg.Points(8)
}

// Colours: one per outcome, one per run (Okabe-Ito, readable by people
// with the common colour-vision deficiencies).
var (
	colBlue      = color.RGBA{0x00, 0x72, 0xB2, 0xff}
	colOrange    = color.RGBA{0xE6, 0x9F, 0x00, 0xff}
	colGreen     = color.RGBA{0x00, 0x9E, 0x73, 0xff}
	colVermilion = color.RGBA{0xD5, 0x5E, 0x00, 0xff}
	colPurple    = color.RGBA{0xCC, 0x79, 0xA7, 0xff}
	colSky       = color.RGBA{0x56, 0xB4, 0xE9, 0xff}
	colYellow    = color.RGBA{0xB8, 0xA0, 0x00, 0xff}
	colBlack     = color.RGBA{0x20, 0x20, 0x20, 0xff}
	colGrey      = color.RGBA{0x88, 0x88, 0x88, 0xff}
	colDarkGrey  = color.RGBA{0x60, 0x60, 0x60, 0xff}
	colRed       = color.RGBA{0xC0, 0x10, 0x10, 0xff}
)

var runColours = []color.Color{colBlue, colVermilion, colGreen, colPurple, colOrange, colSky, colYellow, colBlack}

func runColour(i int) color.Color { return runColours[i%len(runColours)] }

func fade(c color.Color, alpha uint8) color.Color {
	r, g, b, _ := c.RGBA()
	a := uint32(alpha)
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a)}
}

// durationSteps are the tick spacings of a linear time axis.
var durationSteps = []time.Duration{
	time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 6 * time.Hour, 12 * time.Hour,
	policies.Day, 2 * policies.Day, 7 * policies.Day, 14 * policies.Day, 30 * policies.Day, 60 * policies.Day,
	90 * policies.Day, 180 * policies.Day, 365 * policies.Day,
}

// durationTicks labels a linear axis of seconds with readable durations.
type durationTicks struct{}

func (durationTicks) Ticks(lo, hi float64) []plot.Tick {
	span := time.Duration((hi - lo) * float64(time.Second))
	step := durationSteps[len(durationSteps)-1]
	for _, s := range durationSteps {
		if span/s <= 9 {
			step = s
			break
		}
	}
	st := step.Seconds()
	var ticks []plot.Tick
	for v := math.Ceil(lo/st) * st; v <= hi+st*1e-9; v += st {
		ticks = append(ticks, plot.Tick{Value: v, Label: tickLabel(v)})
	}
	return ticks
}

func tickLabel(sec float64) string {
	if sec == 0 {
		return "0"
	}
	return "+" + dur(time.Duration(sec*float64(time.Second)))
}

// logSteps are the ticks of a logarithmic time axis.
var logSteps = []time.Duration{
	0, time.Second, 10 * time.Second, time.Minute, 5 * time.Minute, 15 * time.Minute,
	time.Hour, 3 * time.Hour, 8 * time.Hour, policies.Day, 3 * policies.Day, 7 * policies.Day, 30 * policies.Day,
	90 * policies.Day, 365 * policies.Day,
}

// logTicks labels a log1pScale axis of seconds. A narrow range, where few
// of logSteps fall, gets the linear ticks instead.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for _, s := range logSteps {
		if v := s.Seconds(); v >= lo-1e-9 && v <= hi+1e-9 {
			ticks = append(ticks, plot.Tick{Value: v, Label: tickLabel(v)})
		}
	}
	if len(ticks) < 4 {
		return durationTicks{}.Ticks(lo, hi)
	}
	return ticks
}

// log1pScale is a logarithmic scale that also shows zero: positions follow
// log(1 + x/unit), with x in seconds.
type log1pScale struct{ unit float64 }

func (s log1pScale) Normalize(lo, hi, x float64) float64 {
	f := func(v float64) float64 { return math.Log1p(max(v, 0) / s.unit) }
	d := f(hi) - f(lo)
	if d == 0 {
		return 0
	}
	return (f(x) - f(lo)) / d
}

// timeAxis sets p's x axis to seconds of virtual time from 0 to hi,
// linear or logarithmic. A logarithmic axis starts at the tick below lo
// (the earliest point drawn), so it does not spend its width on nothing.
func timeAxis(a *plot.Axis, lo, hi float64, log bool) {
	a.Min, a.Max = 0, max(hi, 1)
	if log {
		for _, s := range logSteps {
			if s.Seconds() <= lo {
				a.Min = s.Seconds()
			}
		}
		a.Scale = log1pScale{unit: 1}
		a.Tick.Marker = logTicks{}
		a.Label.Text += " (logarithmic)"
		return
	}
	a.Tick.Marker = durationTicks{}
}
