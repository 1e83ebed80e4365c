package report

import (
	"fmt"
	"io"
	"time"
)

// worstCaseWords defines the worst case the TTL tables state.
const worstCaseWords = "worst case: the handler did the work at the first attempt and every answer was lost, so the provider delivered again at every retry of its schedule"

// writeRunTTL writes the detail of one run's dedup-TTL section: for each
// TTL choice the duplicates it lets through, in this run and in the
// policy's worst case.
func writeRunTTL(w *errWriter, r *Summary, t TTLAnalysis) {
	var tb table
	for _, row := range ttlChoiceRows(t) {
		tb.add(row...)
	}
	tb.write(w, "    ")
	w.printf("    (%s)\n", worstCaseWords)
	for _, a := range wrongAdviceLines(r, t) {
		w.printf("    ✗ %s\n", a)
	}
}

// ttlChoiceRows is the table of TTL choices, header first, as every format
// shows it: what each choice let through in this run and in the worst case,
// and whether it covers manual redelivery.
func ttlChoiceRows(t TTLAnalysis) [][]string {
	head := []string{"TTL", "let through in this run", fmt.Sprintf("worst case (of %s)", counted(t.Retries, "retry", "retries"))}
	if t.Manual > 0 {
		head = append(head, fmt.Sprintf("manual redelivery (%s)", dur(t.Manual)))
	}
	rows := [][]string{head}
	for _, c := range t.Choices {
		row := []string{dur(c.TTL), observedCell(c), worstCell(c)}
		if t.Manual > 0 {
			row = append(row, okMark(!c.ManualLeaks))
		}
		rows = append(rows, row)
	}
	return rows
}

// observedCell says what a choice let through in this run.
func observedCell(c TTLChoice) string {
	if c.LeakedArrivals == 0 {
		return "0"
	}
	return fmt.Sprintf("%d %s in %d %s ✗", c.LeakedArrivals, plural(c.LeakedArrivals, "arrival", "arrivals"), c.LeakedEvents, plural(c.LeakedEvents, "event", "events"))
}

// worstCell says how many of one event's retries can come after the key
// expired.
func worstCell(c TTLChoice) string {
	if c.WorstArrivals == 0 {
		return "0"
	}
	return fmt.Sprintf("%d ✗", c.WorstArrivals)
}

func okMark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// WriteTTLText writes the TTL comparison for a person at a terminal: the
// runs side by side, per TTL choice what each lets through, the advice that
// is wrong for each provider, and the overall recommendation. It is what
// `retrysim ttl` prints.
func WriteTTLText(w io.Writer, rep *Report) error {
	return buffered(w, func(w io.Writer) error { return writeTTLText(w, rep) })
}

func writeTTLText(w io.Writer, rep *Report) error {
	ww := &wrapWriter{w: w, width: rep.width()}
	ew := &errWriter{w: ww, field: EscapeText}
	if len(rep.Runs) > 0 {
		r := rep.Runs[0]
		ew.printf("retrysim ttl · %s · seed %d · %s per provider · %s\n", r.scenarioWords(), r.Seed, counted(r.Planned, "event", "events"), r.Target)
	}
	writeTTLCompare(ew, rep)
	writeOverall(ew, rep)
	ew.fail(ww.flush())
	return ew.err
}

// writeTTLCompare writes the side-by-side TTL tables.
func writeTTLCompare(w *errWriter, rep *Report) {
	ttls := make([]TTLAnalysis, len(rep.Runs))
	head := []string{""}
	for i, r := range rep.Runs {
		ttls[i] = r.TTL(rep.TTLs)
		head = append(head, r.Policy)
	}
	var tb table
	tb.add(head...)
	row := func(name string, cell func(r *Summary, t TTLAnalysis) string) {
		cells := []string{name}
		for i, r := range rep.Runs {
			cells = append(cells, cell(r, ttls[i]))
		}
		tb.add(cells...)
	}
	row("worst-case retry span", func(_ *Summary, t TTLAnalysis) string { return dur(t.Window) })
	row("longest key-to-duplicate wait seen", func(_ *Summary, t TTLAnalysis) string { return dur(t.Observed) })
	row("manual redelivery window", func(_ *Summary, t TTLAnalysis) string { return orNone(t.Manual) })
	row("recommended TTL", func(_ *Summary, t TTLAnalysis) string { return dur(t.Recommended) })
	row("  with manual redelivery", func(_ *Summary, t TTLAnalysis) string { return dur(t.WithManual) })
	w.printf("\n")
	tb.write(w, "  ")

	w.printf("\n  duplicates let through, by TTL — in this run: arrivals in events · worst case: retries of one event after expiry:\n")
	tb = table{}
	head[0] = "TTL"
	tb.add(head...)
	for j, ttl := range rep.ttlChoices() {
		cells := []string{dur(ttl)}
		for i := range rep.Runs {
			c := ttls[i].Choices[j]
			cells = append(cells, compactCell(c, ttls[i].Retries))
		}
		tb.add(cells...)
	}
	tb.write(w, "  ")
	w.printf("  (%s)\n", worstCaseWords)
	first := true
	for i := range rep.Runs {
		for _, a := range wrongAdviceLines(rep.Runs[i], ttls[i]) {
			if first {
				w.printf("\n  common advice that is wrong here:\n")
				first = false
			}
			w.printf("    ✗ %s\n", a)
		}
	}
}

// compactCell is one TTL choice for one run in the side-by-side table.
func compactCell(c TTLChoice, retries int) string {
	obs := "0"
	if c.LeakedArrivals > 0 {
		obs = fmt.Sprintf("%d in %d", c.LeakedArrivals, c.LeakedEvents)
	}
	s := fmt.Sprintf("%s · %d/%d", obs, c.WorstArrivals, retries)
	if c.LeakedArrivals > 0 || c.WorstArrivals > 0 {
		s += " ✗"
	}
	return s
}

func orNone(d time.Duration) string {
	if d == 0 {
		return "-"
	}
	return dur(d)
}

// ttlChoices is the TTL choices the report compares.
func (rep *Report) ttlChoices() []time.Duration { return TTLChoices(rep.TTLs) }

// RecommendedWithManual is the largest recommendation covering manual
// redelivery over the runs.
func (rep *Report) RecommendedWithManual() time.Duration {
	var m time.Duration
	for _, r := range rep.Runs {
		m = max(m, r.TTL(rep.TTLs).WithManual)
	}
	return m
}

// writeOverall writes the one-line recommendation over every run.
func writeOverall(w *errWriter, rep *Report) {
	if len(rep.Runs) == 0 {
		w.printf("no runs in the results\n")
		return
	}
	rec, man := rep.RecommendedTTL(), rep.RecommendedWithManual()
	w.printf("\noverall: recommend a dedup TTL of %s", dur(rec))
	if len(rep.Runs) > 1 {
		w.printf(" (the longest of the runs above)")
	}
	if man > rec {
		w.printf("; %s to also cover manual redelivery", dur(man))
	}
	w.printf("\n")
}

// commonAdviceWords names each common TTL as people hear it, its TTL
// (commonAdvice's) in place of the %s.
var commonAdviceWords = map[CommonTTL]string{
	CommonTTLStandardWebhooks: "keeping ids for %s (the Standard Webhooks spec's own suggestion)",
	CommonTTLDayCache:         "a cache that keeps ids for %s",
}

// wrongAdviceLines says, one line each, why the common TTLs of t's
// WrongAdvice are too short for r's policy.
func wrongAdviceLines(r *Summary, t TTLAnalysis) []string {
	var out []string
	for _, a := range t.WrongAdvice {
		c := a.Choice
		s := fmt.Sprintf(commonAdviceWords[a.Advice]+" is too short for %s: it retries for %s", dur(c.TTL), r.Policy, dur(r.Window))
		if len(r.Schedule) > 1 {
			s += fmt.Sprintf(", and %d of its %s can come later than %s", c.WorstArrivals, counted(len(r.Schedule)-1, "retry", "retries"), dur(c.TTL))
		}
		if c.LeakedArrivals > 0 {
			s += fmt.Sprintf(" (in this run: %d duplicate %s in %d %s)", c.LeakedArrivals, plural(c.LeakedArrivals, "arrival", "arrivals"), c.LeakedEvents, plural(c.LeakedEvents, "event", "events"))
		}
		out = append(out, s)
	}
	return out
}
