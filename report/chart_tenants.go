package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// ByTenant makes the timeline chart's rows tenants: one row per tenant of
// a run of several tenants, with its attempts over virtual time, the
// moment its subscription was disabled and the events it lost.
const ByTenant = "tenant"

// tenantBuckets is about how many bars a tenant's row is cut into.
const tenantBuckets = 200

// tenantRow is one row of the chart by tenant: one tenant of one run.
type tenantRow struct {
	run        *Summary
	tenant     string
	disabledAt time.Time // zero when its subscription stayed enabled
	lost       int
	counts     map[int][]int // bar → attempts by outcome style
}

// tenantRows picks the tenants drawn, limit rows in all: from each run of
// several tenants, its disabled tenants spread from the first disabled to
// the last, with those that lost the most events (withMostLost), then
// tenants never disabled, as many as a quarter of the rows
// (more when fewer were disabled), the first met in the stream. It then
// counts the picked tenants' attempts in bars of step.
func tenantRows(rep *Report, limit int, step time.Duration) ([]*tenantRow, error) {
	var many []*Summary
	for _, r := range rep.Runs {
		if r.ManyTenants() {
			many = append(many, r)
		}
	}
	if len(many) == 0 {
		return nil, fmt.Errorf("%w: the chart by tenant needs a run of several tenants", ErrNoData)
	}
	per := max(2, limit/len(many))
	var rows []*tenantRow
	for _, r := range many {
		enabled := min(r.Tenants-len(r.Disables), max(1, per/4))
		if len(r.Disables) < per-enabled {
			enabled = min(r.Tenants-len(r.Disables), per-len(r.Disables))
		}
		byName := map[string]*tenantRow{}
		for _, d := range withMostLost(r, spreadDisables(r.Disables, per-enabled)) {
			row := &tenantRow{run: r, tenant: d.Tenant, disabledAt: d.At, lost: r.lostBy[d.Tenant], counts: map[int][]int{}}
			byName[d.Tenant] = row
			rows = append(rows, row)
		}
		disabled := map[string]bool{}
		for _, d := range r.Disables {
			disabled[d.Tenant] = true
		}
		for ev, err := range r.Timelines() {
			if err != nil {
				return nil, err
			}
			for _, a := range ev.Attempts {
				row := byName[a.Tenant]
				if row == nil {
					if a.Tenant == "" || disabled[a.Tenant] || enabled == 0 {
						continue
					}
					enabled--
					row = &tenantRow{run: r, tenant: a.Tenant, lost: r.lostBy[a.Tenant], counts: map[int][]int{}}
					byName[a.Tenant] = row
					rows = append(rows, row)
				}
				bar := int(a.Time.Sub(r.Start) / step)
				if row.counts[bar] == nil {
					row.counts[bar] = make([]int, len(outcomeStyles))
				}
				for k, st := range outcomeStyles {
					if st.outcome == a.Outcome {
						row.counts[bar][k]++
					}
				}
			}
		}
	}
	return rows, nil
}

// spreadDisables picks n of ds, evenly from the first to the last (all of them
// when there are no more than n).
func spreadDisables(ds []TenantDisable, n int) []TenantDisable {
	if len(ds) <= n {
		return ds
	}
	if n <= 0 {
		return nil
	}
	if n == 1 {
		return ds[:1]
	}
	out := make([]TenantDisable, n)
	for i := range n {
		out[i] = ds[i*(len(ds)-1)/(n-1)]
	}
	return out
}

// withMostLost makes sure picked, disables of r spread over its run, holds
// the disabled tenants that lost the most events, as many as the text
// names (maxTenantsListed): each that is missing takes the place of the
// picked one nearest it in time, never the first or the last, nor one of
// them. Picked stays in the order of the disables.
func withMostLost(r *Summary, picked []TenantDisable) []TenantDisable {
	if len(picked) < 3 {
		return picked
	}
	picked = slices.Clone(picked)
	disabled := map[string]TenantDisable{}
	for _, d := range r.Disables {
		disabled[d.Tenant] = d
	}
	keep := map[string]bool{picked[0].Tenant: true, picked[len(picked)-1].Tenant: true}
	top := 0
	for _, l := range r.LostByTenant() {
		if top == maxTenantsListed {
			break
		}
		d, ok := disabled[l.Tenant]
		if !ok {
			continue
		}
		top++
		keep[d.Tenant] = true
		if slices.ContainsFunc(picked, func(p TenantDisable) bool { return p.Tenant == d.Tenant }) {
			continue
		}
		near := -1
		for i, p := range picked {
			if keep[p.Tenant] {
				continue
			}
			if near < 0 || absDuration(p.At.Sub(d.At)) < absDuration(picked[near].At.Sub(d.At)) {
				near = i
			}
		}
		if near < 0 {
			break // every row is one to keep
		}
		picked[near] = d
	}
	slices.SortStableFunc(picked, func(a, b TenantDisable) int { return a.At.Compare(b.At) })
	return picked
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// drawTenants draws one row per tenant: its attempts in bars over virtual
// time, stacked by outcome (each bar's height its share of the tenant's
// busiest bar), outages shaded, the moment its subscription was disabled
// marked, and from there on the span in which its events were lost.
func drawTenants(c draw.Canvas, rep *Report, opts ChartOptions) error {
	var span time.Duration
	for _, r := range rep.Runs {
		span = max(span, r.End.Sub(r.Start))
		for _, o := range outagesOf(r) {
			span = max(span, o.To.Sub(r.Start))
		}
	}
	step := stormSteps[len(stormSteps)-1]
	for _, st := range stormSteps {
		if span/st <= tenantBuckets {
			step = st
			break
		}
	}
	limit := opts.Rows
	if limit <= 0 {
		limit = DefaultChartRows
	}
	rows, err := tenantRows(rep, limit, step)
	if err != nil {
		return err
	}
	n := len(rows)
	y := func(i int) float64 { return float64(n - 1 - i) }
	sec := func(r *Summary, t time.Time) float64 { return t.Sub(r.Start).Seconds() }
	hi := (span + step).Seconds()

	p := newPlot(tenantChartTitle(rep), "virtual time since the start of the run", "")
	timeAxis(&p.X, 0, hi, false)
	p.Y.Min, p.Y.Max = -0.6, float64(n)-0.4
	ticks := make([]plot.Tick, n)
	for i, row := range rows {
		label := shortTenant(row.tenant)
		if len(rep.Runs) > 1 {
			label = row.run.Policy + "  " + label
		}
		ticks[i] = plot.Tick{Value: y(i), Label: label}
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Tick.Label.Font = sans(rowLabelSize(n))
	p.Y.Tick.Length = 0
	p.Y.LineStyle.Width = 0
	p.X.Padding, p.Y.Padding = 0, vg.Points(8)

	grid := &segments{style: draw.LineStyle{Color: fade(colGrey, 60), Width: vg.Points(1)}}
	for i := 0; i <= n; i++ {
		yy := float64(n-i) - 0.5
		grid.segs = append(grid.segs, [2][2]float64{{0, yy}, {hi, yy}})
	}
	p.Add(grid)

	// Each run's outages over its own rows.
	outages := &rects{colour: outageColour}
	for _, r := range rep.Runs {
		y0, y1 := p.Y.Max, p.Y.Min
		for i, row := range rows {
			if row.run == r {
				y0, y1 = min(y0, y(i)-0.5), max(y1, y(i)+0.5)
			}
		}
		for _, o := range outagesOf(r) {
			outages.rs = append(outages.rs, rect{x0: sec(r, o.From), x1: max(sec(r, o.To), sec(r, o.From)+hi/400), y0: y0, y1: y1})
		}
	}
	if len(outages.rs) > 0 {
		p.Add(outages)
	}
	// After a subscription is disabled, its tenant's events are lost.
	lostSpan := &rects{colour: fade(colGrey, 70)}
	disables := &glyphs{style: draw.GlyphStyle{Color: colRed, Radius: vg.Points(7), Shape: endBar{width: vg.Points(3)}}}
	notes := &rowNotes{text: text.Style{Color: colRed, Font: boldSans(rowLabelSize(n)), Handler: plot.DefaultTextHandler}}
	for i, row := range rows {
		if row.disabledAt.IsZero() {
			continue
		}
		x := sec(row.run, row.disabledAt)
		lostSpan.rs = append(lostSpan.rs, rect{x0: x, x1: hi, y0: y(i) - 0.4, y1: y(i) + 0.4})
		disables.pts = append(disables.pts, [2]float64{x, y(i)})
		notes.add(x, y(i), tenantRowNote(row))
	}
	if len(lostSpan.rs) > 0 {
		p.Add(lostSpan)
	}
	// The bars, stacked by outcome.
	width := step.Seconds()
	bars := make([]*rects, len(outcomeStyles))
	for k, st := range outcomeStyles {
		bars[k] = &rects{colour: st.colour}
	}
	for i, row := range rows {
		busiest := 0
		for _, cs := range row.counts {
			tot := 0
			for _, v := range cs {
				tot += v
			}
			busiest = max(busiest, tot)
		}
		for _, bar := range slices.Sorted(maps.Keys(row.counts)) {
			base := y(i) - 0.4
			x0 := float64(bar) * width
			for k, v := range row.counts[bar] {
				if v == 0 {
					continue
				}
				h := 0.8 * float64(v) / float64(busiest)
				bars[k].rs = append(bars[k].rs, rect{x0: x0, x1: x0 + width*0.9, y0: base, y1: base + h})
				base += h
			}
		}
	}
	for k, st := range outcomeStyles {
		if len(bars[k].rs) > 0 {
			p.Add(bars[k])
			p.Legend.Add(st.label, bars[k])
		}
	}
	if len(outages.rs) > 0 {
		p.Legend.Add("outage (attempts refused)", outages)
	}
	if len(disables.pts) > 0 {
		p.Add(disables, notes)
		p.Legend.Add("subscription disabled", disables)
		p.Legend.Add("disabled: its events lost", lostSpan)
	}
	drawWithLegend(c, p, tenantChartNote(rep, rows, step))
	return nil
}

// shortTenant is a tenant's row label: Shopify's shop domain without its
// common suffix.
func shortTenant(name string) string {
	return shortLabel(strings.TrimSuffix(name, ".myshopify.com"))
}
