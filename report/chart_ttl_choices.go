package report

import (
	"slices"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ttlChoiceMarks draws the TTL choices a report compares as lines across
// a TTL panel, from 0 to 100%, each labelled with its TTL above its top:
// over the line, a row higher where a neighbour's label is in the way,
// else beside it. The labels keep clear of each other and of the recommendation
// (its line and its label at the top of the panel), whose label names the
// choice it falls on; one that finds no room is left out, as in a panel too
// small for them all.
type ttlChoiceMarks struct {
	ttls []time.Duration
	line draw.LineStyle
	text text.Style
	// rec is the recommendation, drawn over the same panel after the
	// curves: its line stops short around the labels placed (see
	// vmark.around).
	rec *vmark
	// placed is where the labels went, as last drawn.
	placed []vg.Rectangle
}

func (m *ttlChoiceMarks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	base := ty(100)
	ttls := slices.Clone(m.ttls)
	slices.Sort(ttls)
	for _, ttl := range ttls {
		if x := tx(ttl.Seconds()); c.ContainsX(x) {
			c.StrokeLine2(m.line, x, ty(0), x, base)
		}
	}
	gap := vg.Points(4)
	var taken []vg.Rectangle
	if m.rec != nil {
		if x := tx(m.rec.x); c.ContainsX(x) {
			label, _ := m.rec.topBox(c, x, c.Max.Y)
			taken = append(taken, label)
		}
	}
	m.placed = m.placed[:0]
	sty := m.text
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	for _, ttl := range ttls {
		x := tx(ttl.Seconds())
		if !c.ContainsX(x) || m.rec != nil && ttl.Seconds() == m.rec.x {
			// The recommendation's own label names a choice it falls on.
			continue
		}
		label := dur(ttl)
		r := sty.Rectangle(label)
		w, h := r.Max.X-r.Min.X, r.Max.Y-r.Min.Y
		if box, ok := choiceLabelPlace(c, x, base+gap, w, h, gap, taken); ok {
			taken = append(taken, box)
			m.placed = append(m.placed, box)
			c.FillText(sty, vg.Point{X: box.Min.X - r.Min.X, Y: box.Min.Y - r.Min.Y}, label)
		}
	}
}

// choiceLabelPlace finds room for a label w by h for the line at x, in
// rows from bottom up to the top of c, clear of every box taken by gap:
// over the line (moved in from the panel's edge, still over it) in the
// lowest row with room, so that labels close together stack over their
// lines; else beside it, right or left, where a line or label too close
// leaves no room over it in any row.
func choiceLabelPlace(c draw.Canvas, x, bottom, w, h, gap vg.Length, taken []vg.Rectangle) (vg.Rectangle, bool) {
	side := gap + vg.Points(2)
	over := min(max(x-w/2, c.Min.X), c.Max.X-w)
	for _, lefts := range [][]vg.Length{{over}, {x + side, x - side - w}} {
		for y := bottom; y+h <= c.Max.Y; y += h + gap/2 {
			for _, left := range lefts {
				box := vg.Rectangle{Min: vg.Point{X: left, Y: y}, Max: vg.Point{X: left + w, Y: y + h}}
				if box.Min.X < c.Min.X || box.Max.X > c.Max.X {
					continue
				}
				if !slices.ContainsFunc(taken, func(t vg.Rectangle) bool { return boxesNear(box, t, gap) }) {
					return box, true
				}
			}
		}
	}
	return vg.Rectangle{}, false
}

// boxesNear says whether a and b come closer than gap.
func boxesNear(a, b vg.Rectangle, gap vg.Length) bool {
	return a.Min.X < b.Max.X+gap && b.Min.X < a.Max.X+gap && a.Min.Y < b.Max.Y+gap/2 && b.Min.Y < a.Max.Y+gap/2
}

func (m *ttlChoiceMarks) Thumbnail(c *draw.Canvas) {
	y := (c.Min.Y + c.Max.Y) / 2
	c.StrokeLine2(m.line, c.Min.X, y, c.Max.X, y)
}
