package report

import (
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"

	"github.com/retrysim/retrysim/policies"
)

// Every TTL choice the TTL chart compares is labelled over its own line,
// in every panel, at the picture's size, for one provider, two and six:
// the choice the recommendation falls on by the recommendation's label.
// (That no label covers another, a mark or a line is TestChartLabelsClear.)
func TestTTLChoicesLabelledOverTheirLines(t *testing.T) {
	for _, providers := range [][]string{{"stripe"}, {"stripe", "shopify"}, policies.NamedDefaults()} {
		t.Run(fmt.Sprintf("%d providers", len(providers)), func(t *testing.T) {
			rep := layoutRun(t, providers, "flaky-network", 40)
			rec := drawOn(t, rep, ChartOptions{Chart: ChartTTL})
			// The choices' lines are the light grey vertical strokes; their
			// labels the dark grey texts.
			var lines []vg.Length
			for _, l := range rec.lines {
				if l.col == (color.Gray{Y: 0xcc}) && len(l.segs) == 1 && l.segs[0][0].X == l.segs[0][1].X {
					lines = append(lines, l.segs[0][0].X)
				}
			}
			labels := map[string]int{}
			for _, tx := range rec.texts {
				if tx.col != colDarkGrey {
					continue
				}
				labels[tx.text]++
				over := false
				for _, x := range lines {
					over = over || tx.box.Min.X <= x && x <= tx.box.Max.X
				}
				if !over {
					t.Errorf("the label %q at %.0f–%.0f is over none of the choices' lines", tx.text, tx.box.Min.X, tx.box.Max.X)
				}
			}
			for _, ttl := range rep.ttlChoices() {
				want := len(rep.Runs)
				for _, r := range rep.Runs {
					if r.TTL(rep.TTLs).Recommended == ttl {
						want-- // named by "recommend 3d"
					}
				}
				if got := labels[dur(ttl)]; got != want {
					t.Errorf("the choice %s is labelled in %d panels of %d (the others recommend it)", dur(ttl), got, want)
				}
			}
		})
	}
}

// The TTL chart's legend and note name only the lines its panels draw: no
// "this run" where no duplicate came after a key (its panel draws no solid line),
// no "worst case" for a policy that does not retry.
func TestTTLLegendNamesOnlyLinesDrawn(t *testing.T) {
	cases := []struct {
		provider, scenario string
		obs, worst         bool
	}{
		{"stripe", "flaky-network", true, true},
		{"shopify", "outage", false, true},
		{"discord", "happy", false, false},
	}
	for _, c := range cases {
		t.Run(c.provider+"/"+c.scenario, func(t *testing.T) {
			rep := layoutRun(t, []string{c.provider}, c.scenario, 20)
			r := rep.Runs[0]
			if (r.DuplicatesAfterKey() > 0) != c.obs || (r.TTL(rep.TTLs).Retries > 0) != c.worst {
				t.Fatalf("%d duplicates, %d retries in the worst case: not the run the case is about", r.DuplicatesAfterKey(), r.TTL(rep.TTLs).Retries)
			}
			rec := drawOn(t, rep, ChartOptions{Chart: ChartTTL})
			said := map[string]bool{}
			var note strings.Builder
			for _, tx := range rec.texts {
				said[tx.text] = true
				note.WriteString(tx.text + " ")
			}
			if said["this run"] != c.obs {
				t.Errorf("legend names \"this run\": %v, want %v", said["this run"], c.obs)
			}
			if said["worst case"] != c.worst {
				t.Errorf("legend names \"worst case\": %v, want %v", said["worst case"], c.worst)
			}
			if strings.Contains(note.String(), "Solid:") != c.obs || strings.Contains(note.String(), "Dashed:") != c.worst {
				t.Errorf("the note speaks of lines not drawn: %s", note.String())
			}
		})
	}
}

// A TTL panel's title stays within its panel: "discord · no duplicate
// after a key in this run", centred over the last panel of a row, ran into
// the legend's column.
func TestTTLPanelTitlesStayInTheirPanels(t *testing.T) {
	rep := layoutRun(t, policies.NamedDefaults(), "flaky-network", 20)
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTTL})
	legend := vg.Length(math.Inf(1))
	for _, tx := range rec.texts {
		if tx.text == "TTL choices compared" {
			legend = tx.box.Min.X
		}
	}
	titles := 0
	for _, tx := range rec.texts {
		if !strings.HasSuffix(tx.text, " in this run") {
			continue
		}
		titles++
		if tx.box.Max.X > legend-vg.Points(28) {
			t.Errorf("panel title %q ends at %.0f, in the legend's column (its swatches from %.0f)", tx.text, tx.box.Max.X, legend-vg.Points(28))
		}
	}
	if titles != len(rep.Runs) {
		t.Fatalf("found %d panel titles, want %d", titles, len(rep.Runs))
	}
}

// This run's line ends in a dot where it reaches 0, at the longest wait
// from a key to a duplicate: in a big run the last few duplicates are a
// share too small to lift the line off 0 hours before that, and the
// chart read as if a shorter TTL let none through.
func TestTTLChartMarksWhereThisRunReachesZero(t *testing.T) {
	rep := layoutRun(t, []string{"stripe"}, "flaky-network", 2000)
	ta := rep.Runs[0].TTL(rep.TTLs)
	if ta.Observed == 0 {
		t.Fatal("no duplicate came after a key: not the run the test is about")
	}
	rec := drawOn(t, rep, ChartOptions{Chart: ChartTTL})
	col := runColour(0)
	// This run's line: where it comes down to its lowest level the last time.
	var zeroAt vg.Length
	low := vg.Length(math.Inf(1))
	for _, l := range rec.lines {
		if l.col != col || l.width != vg.Points(3.5) {
			continue
		}
		for _, s := range l.segs {
			low = min(low, s[0].Y, s[1].Y)
		}
		for _, s := range l.segs {
			if s[0].X == s[1].X && min(s[0].Y, s[1].Y) == low && s[0].Y != s[1].Y {
				zeroAt = s[0].X
			}
		}
	}
	if zeroAt == 0 {
		t.Fatal("this run's line never comes down to its lowest level")
	}
	dots := 0
	for _, f := range rec.fills {
		w := f.box.Max.X - f.box.Min.X
		if f.col != col || w < vg.Points(8) || w > vg.Points(12) {
			continue
		}
		dots++
		if x, y := (f.box.Min.X+f.box.Max.X)/2, (f.box.Min.Y+f.box.Max.Y)/2; math.Abs(float64(x-zeroAt)) > 3 || math.Abs(float64(y-low)) > 1 {
			t.Errorf("the dot is at %.1f,%.1f; this run's line reaches 0 at %.1f,%.1f", x, y, zeroAt, low)
		}
	}
	if dots != 1 {
		t.Errorf("%d dots in the run's colour, want the one where its line reaches 0", dots)
	}
	var note []string
	for _, tx := range rec.texts {
		note = append(note, tx.text)
	}
	if want := policies.FormatDuration(ta.Observed); !strings.Contains(strings.Join(note, " "), want+".") {
		t.Errorf("the note does not give the longest wait, %s", want)
	}
}
