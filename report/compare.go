package report

import (
	"fmt"
	"strings"
)

// compareRow is one line of the side-by-side comparison of several runs.
type compareRow struct {
	name string
	cell func(r *Summary) string
}

// compareRows are the summary figures compared side by side, in every
// format that shows several runs.
var compareRows = []compareRow{
	{"events delivered", deliveredOf},
	{"events lost", func(r *Summary) string { return markIf(r.Lost > 0, fmt.Sprint(r.Lost)) }},
	{"attempts", func(r *Summary) string { return fmt.Sprint(r.Attempts) }},
	{"handler reached", func(r *Summary) string {
		if r.RefusedArrivals > 0 {
			return markIf(true, fmt.Sprintf("%d (%d refused with 4xx)", r.HandlerArrivals, r.RefusedArrivals))
		}
		return fmt.Sprint(r.HandlerArrivals)
	}},
	{"duplicate arrivals", func(r *Summary) string {
		if r.DuplicateArrivals == 0 {
			return "0"
		}
		return markIf(true, fmt.Sprintf("%d in %d %s", r.DuplicateArrivals, r.DuplicateEvents, plural(r.DuplicateEvents, "event", "events")))
	}},
	{"processed more than once", func(r *Summary) string {
		if d := r.DuplicateEffects(); d >= 0 {
			return markIf(d > 0, fmt.Sprint(d))
		}
		return "unknown"
	}},
	{"verdict", func(r *Summary) string { return VerdictWords(r.Verdict()) }},
	{"signature check", func(r *Summary) string {
		v := r.SignatureCheck()
		return markIf(v == SignatureNotEnforced, SignatureWords(v))
	}},
	{"endpoint disabled", func(r *Summary) string {
		if r.DisabledAt.IsZero() {
			return "no"
		}
		return "at +" + dur(r.DisabledAt.Sub(r.Start)) + " ✗"
	}},
	{"handler p95 response", func(r *Summary) string {
		if r.Percentile(95) == 0 {
			return "-"
		}
		return ms(r.Percentile(95))
	}},
}

func markIf(bad bool, s string) string {
	if bad {
		return s + " ✗"
	}
	return s
}

// VerdictWords is how the reports spell a verdict for people; "unknown"
// when the run had no effects oracle.
func VerdictWords(v Verdict) string {
	switch v {
	case Idempotent:
		return "IDEMPOTENT"
	case NotIdempotent:
		return "NOT IDEMPOTENT"
	}
	return "unknown"
}

// compareTableRows is the side-by-side table, header first: one column per
// run, one row per figure in compareRows.
func compareTableRows(rep *Report) [][]string {
	head := []string{""}
	for _, r := range rep.Runs {
		head = append(head, r.Policy)
	}
	rows := [][]string{head}
	for _, row := range compareRows {
		cells := []string{row.name}
		for _, r := range rep.Runs {
			cells = append(cells, row.cell(r))
		}
		rows = append(rows, cells)
	}
	return rows
}

// writeCompareText writes several runs side by side: the summary figures,
// then the TTL tables.
func writeCompareText(w *errWriter, rep *Report) {
	w.printf("\n%s\n", strings.Repeat("─", 72))
	w.printf("side by side: %d runs · %s · seed %d\n\n", len(rep.Runs), rep.Runs[0].Scenario, rep.Runs[0].Seed)
	var tb table
	for _, row := range compareTableRows(rep) {
		tb.add(row...)
	}
	tb.write(w, "  ")
	if rep.Verbose {
		// Each run's section already gives its recommendation.
		writeTTLCompare(w, rep)
	}
}
