package report

import (
	"cmp"
	"image/color"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The small plotters the charts are built from, in data coordinates.

// rect is a rectangle in data coordinates.
type rect struct{ x0, x1, y0, y1 float64 }

// rects fills rectangles with one colour, clipped to the data area. They
// do not widen the axes.
type rects struct {
	rs     []rect
	colour color.Color
	line   color.Color // outline, nil for none
}

func (b *rects) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, r := range b.rs {
		pts := []vg.Point{{X: tx(r.x0), Y: ty(r.y0)}, {X: tx(r.x1), Y: ty(r.y0)}, {X: tx(r.x1), Y: ty(r.y1)}, {X: tx(r.x0), Y: ty(r.y1)}}
		pts = c.ClipPolygonXY(pts)
		if len(pts) == 0 {
			continue
		}
		c.FillPolygon(b.colour, pts)
		if b.line != nil {
			c.StrokeLines(draw.LineStyle{Color: b.line, Width: vg.Points(1)}, c.ClipLinesXY(append(pts, pts[0]))...)
		}
	}
}

func (b *rects) Thumbnail(c *draw.Canvas) {
	r := c.Rectangle
	pts := []vg.Point{r.Min, {X: r.Max.X, Y: r.Min.Y}, r.Max, {X: r.Min.X, Y: r.Max.Y}}
	c.FillPolygon(b.colour, pts)
	if b.line != nil {
		c.StrokeLines(draw.LineStyle{Color: b.line, Width: vg.Points(1)}, append(pts, pts[0]))
	}
}

// segments draws horizontal or free line segments.
type segments struct {
	segs  [][2][2]float64 // ((x0,y0),(x1,y1))
	style draw.LineStyle
}

func (s *segments) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, sg := range s.segs {
		line := []vg.Point{{X: tx(sg[0][0]), Y: ty(sg[0][1])}, {X: tx(sg[1][0]), Y: ty(sg[1][1])}}
		c.StrokeLines(s.style, c.ClipLinesXY(line)...)
	}
}

func (s *segments) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(s.style, c.Min.X, y, c.Max.X, y)
}

// polyline draws a line through its points as one path, so a dashed
// style's dashes run along the whole line rather than start afresh at
// every point.
type polyline struct {
	pts   [][2]float64
	style draw.LineStyle
}

func (l *polyline) Plot(c draw.Canvas, p *plot.Plot) {
	if len(l.pts) < 2 {
		return
	}
	tx, ty := p.Transforms(&c)
	line := make([]vg.Point, len(l.pts))
	for i, pt := range l.pts {
		line[i] = vg.Point{X: tx(pt[0]), Y: ty(pt[1])}
	}
	c.StrokeLines(l.style, c.ClipLinesXY(line)...)
}

func (l *polyline) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(l.style, c.Min.X, y, c.Max.X, y)
}

// vmark is a vertical line across the data area with a label at its top.
type vmark struct {
	x     float64
	label string
	style draw.LineStyle
	text  text.Style
	// row shifts the label down by this many label heights, so several
	// marks close together do not print over each other.
	row int
	// rows, when set, limits the line to the data range [y0, y1]: the rows
	// of the one run the mark is about.
	rows   bool
	y0, y1 float64
	// labelOnly draws the label and not the line: labels drawn after every
	// line stay on top of them.
	labelOnly bool
	// labelTop puts the label at the very top of the data area, over
	// the line, which stops under it.
	labelTop bool
	// around, when set, gives labels drawn earlier that the line must not
	// cross (a labelTop mark's): it breaks around each.
	around func() []vg.Rectangle
}

func (m *vmark) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	x := tx(m.x)
	if !c.ContainsX(x) {
		return
	}
	bottom, top := c.Min.Y, c.Max.Y
	if m.rows {
		bottom, top = max(ty(m.y0), c.Min.Y), min(ty(m.y1), c.Max.Y)
	}
	if m.labelTop && m.label != "" {
		m.plotTop(c, x, bottom, top)
		return
	}
	if !m.labelOnly {
		c.StrokeLine2(m.style, x, bottom, x, top)
	}
	if m.label == "" {
		return
	}
	sty := m.text
	h := sty.Rectangle(m.label).Max.Y
	// Labels stack down from the top of the data area (a timeline keeps a
	// strip there for them, above its rows).
	y := c.Max.Y - h*vg.Length(1.4*float64(m.row+1))
	// Flip the label to the left of the line near the right edge.
	sty.XAlign = draw.XLeft
	pad := vg.Points(4)
	w := sty.Rectangle(m.label).Max.X
	lx := x + pad
	if lx+w > c.Max.X {
		sty.XAlign = draw.XRight
		lx = x - pad
	}
	bg := sty.Rectangle(m.label)
	off := lx
	if sty.XAlign == draw.XRight {
		off = lx - w
	}
	c.FillPolygon(color.White, []vg.Point{
		{X: off - 2, Y: y + bg.Min.Y - 2}, {X: off + w + 2, Y: y + bg.Min.Y - 2},
		{X: off + w + 2, Y: y + bg.Max.Y + 2}, {X: off - 2, Y: y + bg.Max.Y + 2},
	})
	c.FillText(sty, vg.Point{X: lx, Y: y}, m.label)
}

// plotTop draws the label centred over the line at the top of the data
// area, kept inside it, and the line up to just under the label, so that
// neither crosses the other.
func (m *vmark) plotTop(c draw.Canvas, x, bottom, top vg.Length) {
	sty := m.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	label, lineTop := m.topBox(c, x, top)
	c.FillText(sty, vg.Point{X: label.Min.X, Y: top}, m.label)
	if m.labelOnly {
		return
	}
	var boxes []vg.Rectangle
	if m.around != nil {
		boxes = m.around()
	}
	for _, s := range lineAround(x, bottom, lineTop, m.style.Width/2+vg.Points(2), boxes) {
		c.StrokeLine2(m.style, x, s[0], x, s[1])
	}
}

// lineAround is the vertical line at x from bottom to top as the pieces
// that keep pad clear of each box it would cross.
func lineAround(x, bottom, top, pad vg.Length, boxes []vg.Rectangle) [][2]vg.Length {
	cuts := slices.Clone(boxes)
	slices.SortFunc(cuts, func(a, b vg.Rectangle) int { return cmp.Compare(a.Min.Y, b.Min.Y) })
	var out [][2]vg.Length
	from := bottom
	for _, b := range cuts {
		if x < b.Min.X-pad || x > b.Max.X+pad || b.Max.Y+pad < from || b.Min.Y-pad > top {
			continue
		}
		if b.Min.Y-pad > from {
			out = append(out, [2]vg.Length{from, b.Min.Y - pad})
		}
		from = max(from, b.Max.Y+pad)
	}
	if from < top {
		out = append(out, [2]vg.Length{from, top})
	}
	return out
}

// topBox is where plotTop puts the label of a mark at x, under top, and
// how far up its line goes: what other labels at the top of a plot keep
// clear of.
func (m *vmark) topBox(c draw.Canvas, x, top vg.Length) (label vg.Rectangle, lineTop vg.Length) {
	sty := m.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YTop
	r := sty.Rectangle(m.label)
	w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
	lx := min(max(x-w/2, c.Min.X+2), c.Max.X-w-2)
	return vg.Rectangle{Min: vg.Point{X: lx, Y: top - h}, Max: vg.Point{X: lx + w, Y: top}}, top - h - vg.Points(3)
}

func (m *vmark) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	c.StrokeLine2(m.style, x, c.Min.Y, x, c.Max.Y)
}

// glyphs draws one glyph style at many points; a legend entry shows it.
type glyphs struct {
	pts   [][2]float64
	style draw.GlyphStyle
}

func (g *glyphs) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for _, pt := range g.pts {
		v := vg.Point{X: tx(pt[0]), Y: ty(pt[1])}
		if c.Contains(v) {
			c.DrawGlyphNoClip(g.style, v)
		}
	}
}

func (g *glyphs) Thumbnail(c *draw.Canvas) { c.DrawGlyph(g.style, c.Center()) }

// attemptMarks draws every attempt's glyph, and lifts a glyph that would
// cover the one before it in its row (attempts a second apart on an axis
// of hours) half a glyph up or down, so each stays visible.
type attemptMarks struct {
	radius vg.Length
	pts    []attemptMark
}

type attemptMark struct {
	x, y  float64
	style draw.GlyphStyle
}

func (m *attemptMarks) add(x, y float64, sty draw.GlyphStyle) {
	m.pts = append(m.pts, attemptMark{x: x, y: y, style: sty})
}

func (m *attemptMarks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	type last struct {
		x     vg.Length
		level int
	}
	prev := map[float64]last{} // by row
	levels := []vg.Length{0, 1, -1}
	for _, pt := range m.pts {
		v := vg.Point{X: tx(pt.x), Y: ty(pt.y)}
		level := 0
		if l, ok := prev[pt.y]; ok && v.X-l.x < m.radius*1.2 {
			level = (l.level + 1) % len(levels)
		}
		prev[pt.y] = last{x: v.X, level: level}
		v.Y += levels[level] * m.radius
		if c.Contains(v) {
			c.DrawGlyphNoClip(pt.style, v)
		}
	}
}

// rowNotes writes short labels just right of points: how often an event
// was processed, after its last attempt.
type rowNotes struct {
	notes []rowNote
	text  text.Style
}

type rowNote struct {
	x, y  float64
	label string
}

func (n *rowNotes) add(x, y float64, label string) {
	n.notes = append(n.notes, rowNote{x: x, y: y, label: label})
}

func (n *rowNotes) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := n.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	gap := vg.Points(14) // clear of the mark's glyph, and of the key's arrow at the right edge
	for _, note := range n.notes {
		x := tx(note.x) + gap
		w := sty.Rectangle(note.label).Max.X
		if x+w > c.Max.X-gap {
			x = tx(note.x) - gap - w // no room on the right: on the left of the mark
		}
		c.FillText(sty, vg.Point{X: x, Y: ty(note.y)}, note.label)
	}
}

func (n *rowNotes) Thumbnail(c *draw.Canvas) {
	sty := n.text
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	c.FillText(sty, c.Center(), "×2")
}

// endBar is a short vertical bar: the end of an event's chain, given up.
type endBar struct{ width vg.Length }

func (e endBar) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	ls := draw.LineStyle{Color: sty.Color, Width: e.width}
	x := pt.X + sty.Radius
	c.StrokeLine2(ls, x, pt.Y-sty.Radius, x, pt.Y+sty.Radius)
}

// outagesOf is the outages a chart draws for r: the scenario's windows,
// whole, when the stream states them; else the spans its attempts met.
func outagesOf(r *Summary) []Span {
	if len(r.OutageWindows) > 0 {
		return r.OutageWindows
	}
	return r.Outages
}

// arrowRight is a triangle pointing right whose tip is the point: a band
// that goes on past the chart's right edge.
type arrowRight struct{}

func (arrowRight) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	c.FillPolygon(sty.Color, []vg.Point{{X: pt.X, Y: pt.Y}, {X: pt.X - 1.6*r, Y: pt.Y - r}, {X: pt.X - 1.6*r, Y: pt.Y + r}})
}
