package report

import (
	"fmt"
	"io"
	"strings"
)

// WriteMarkdown writes the report as Markdown for design docs and pull
// requests: the verdict, tables of the figures and the TTL choices, the
// recommendation, the chart when one was written (Report.Chart), and with
// several runs a side-by-side comparison.
func WriteMarkdown(w io.Writer, rep *Report) error {
	return buffered(w, func(w io.Writer) error { return writeMarkdown(w, rep) })
}

func writeMarkdown(w io.Writer, rep *Report) error {
	ew := &errWriter{w: w, field: EscapeText}
	ew.printf("# retrysim report\n")
	if len(rep.Runs) > 0 {
		r := rep.Runs[0]
		ew.printf("\nScenario **%s**%s · %s · %s\n", mdEscape(r.Scenario), defaultWords(r), r.seedWords(), runsWord(rep))
	}
	for _, c := range rep.chartFiles() {
		ew.printf("\n![retrysim chart](%s)\n", mdLink(c))
	}
	if len(rep.Runs) > 0 {
		writeOverallMarkdown(ew, rep)
	}
	for _, r := range rep.Runs {
		writeRunMarkdown(ew, rep, r)
	}
	if len(rep.Runs) > 1 {
		ew.printf("\n## Side by side\n\n")
		var tb mdTable
		for _, row := range compareTableRows(rep) {
			tb.add(row...)
		}
		tb.write(ew)
		writeTTLCompareMarkdown(ew, rep)
	}
	return ew.err
}

// WriteTTLMarkdown writes the TTL comparison (what `retrysim ttl` prints) as
// Markdown.
func WriteTTLMarkdown(w io.Writer, rep *Report) error {
	return buffered(w, func(w io.Writer) error { return writeTTLMarkdown(w, rep) })
}

func writeTTLMarkdown(w io.Writer, rep *Report) error {
	ew := &errWriter{w: w, field: EscapeText}
	ew.printf("# Dedup TTL\n")
	if len(rep.Runs) > 0 {
		r := rep.Runs[0]
		ew.printf("\nScenario **%s**%s · %s · %s per provider · %s\n", mdEscape(r.Scenario), defaultWords(r), r.seedWords(), counted(r.Planned, "event", "events"), mdEscape(r.Target))
		writeOverallMarkdown(ew, rep)
	}
	if rep.Chart != "" {
		ew.printf("\n![dedup TTL comparison](%s)\n", mdLink(rep.Chart))
	}
	writeTTLCompareMarkdown(ew, rep)
	return ew.err
}

func runsWord(rep *Report) string {
	if len(rep.Runs) == 1 {
		return "1 run"
	}
	return fmt.Sprintf("%d runs", len(rep.Runs))
}

func writeOverallMarkdown(w *errWriter, rep *Report) {
	if len(rep.Runs) == 0 {
		return
	}
	rec, man := rep.RecommendedTTL(), rep.RecommendedWithManual()
	w.printf("\n**Recommended dedup TTL: %s**", dur(rec))
	if man > rec {
		w.printf(" (%s to also cover manual redelivery)", dur(man))
	}
	w.printf("\n")
}

func writeRunMarkdown(w *errWriter, rep *Report, r *Summary) {
	w.printf("\n## %s · %s · %s\n\n", mdEscape(r.Policy), mdEscape(r.scenarioWords()), r.seedWords())
	if r.PolicySummary != "" {
		w.printf("%s · ", mdEscape(r.PolicySummary))
	}
	w.printf("%s%s", r.plannedWords(), r.typeWords(mdCode))
	w.printf(" · target: %s\n", mdEscape(r.Target))
	if h := r.handshakeLine(); h != "" {
		w.printf("\n%s\n", mdEscape(h))
	}
	switch {
	case r.RestartFailed != nil:
		w.printf("\n**STOPPED**: %s\n", mdEscape(restartFailedWords(r.RestartFailed)))
	case r.Interrupted:
		w.printf("\n**INTERRUPTED**: the run was stopped before its end; what follows covers the attempts made.\n")
	}
	if r.Incomplete {
		w.printf("\n**INCOMPLETE**: the results stream stops before this run's end record (cut off); what follows covers only the records in it.\n")
	}
	w.printf("\n**Verdict: %s** — %s\n\n", VerdictWords(r.Verdict()), mdEscape(rep.words().verdictLine(r)))
	var tb mdTable
	tb.add("", mdEscape(r.Policy))
	for _, row := range compareRows {
		tb.add(row.name, row.cell(r))
	}
	tb.add("attempts by outcome", outcomeLine(r))
	tb.write(w)
	if c := causeLine(r); c != "" {
		w.printf("\n%s: %s\n", mdEscape(capitalise(causeHead(r))), mdEscape(c))
	}
	if !r.DisabledAt.IsZero() {
		w.printf("\n**Endpoint disabled** at +%s: %s; %s never delivered because of it.\n",
			dur(r.DisabledAt.Sub(r.Start)), mdEscape(disabledWords(r)), counted(r.LostToDisable, "event", "events"))
	}
	if t := tenantsLine(r); t != "" {
		w.printf("\n**Tenants**: %s.\n", mdEscape(t))
	}
	writeSignatureMarkdown(w, rep, r)
	writeLatencyMarkdown(w, rep, r)
	t := r.TTL(rep.TTLs)
	w.printf("\n### Dedup TTL\n\n**Recommend %s**", dur(t.Recommended))
	if t.WithManual > t.Recommended {
		w.printf(" (%s to also cover manual redelivery)", dur(t.WithManual))
	}
	w.printf(" — %s\n\n", mdEscape(ttlReason(r, t)))
	tb = mdTable{}
	for _, row := range ttlChoiceRows(t) {
		tb.add(row...)
	}
	tb.write(w)
	w.printf("\n_%s._\n", capitalise(worstCaseWords))
	for _, a := range wrongAdviceLines(r, t) {
		w.printf("\n> ✗ %s\n", mdEscape(a))
	}
	if advice := rep.words().adviceLines(r, rep.Timeouts); len(advice) > 0 {
		w.printf("\n### What to change\n\n")
		for _, a := range advice {
			w.printf("- %s\n", mdEscape(a))
		}
	}
	if gates := GatesFor(rep.Gates, r); len(gates) > 0 {
		w.printf("\n### CI gates (%s)\n\n", mdEscape(rep.words().of(SettingGates)))
		tb = mdTable{}
		tb.add("gate", "result", "why")
		for _, g := range gates {
			tb.add("`"+string(g.Gate)+"`", gateMark[g.Status]+" "+string(g.Status), mdEscape(g.Message))
		}
		tb.write(w)
	}
	if rep.Timeline > 0 && r.TimelineCount() > 0 {
		sh, err := r.Sample(rep.Timeline)
		w.fail(err)
		w.printf("\n### Timeline of %s\n\n", sampleHead(sh))
		if s := sampleShows(sh); s != "" {
			w.printf("%s\n\n", mdEscape(s))
		}
		tb = mdTable{}
		tb.add("event", "attempts (+ virtual time since the event's first attempt)")
		for _, ev := range sh.Events {
			tb.add(mdCode(ev.ID), mdEscape(timelineLine(ev)+effectsMark(r, ev.ID)))
		}
		tb.write(w)
	}
}

func writeTTLCompareMarkdown(w *errWriter, rep *Report) {
	ttls := make([]TTLAnalysis, len(rep.Runs))
	head := []string{""}
	for i, r := range rep.Runs {
		ttls[i] = r.TTL(rep.TTLs)
		head = append(head, mdEscape(r.Policy))
	}
	w.printf("\n### Dedup TTL by provider\n\n")
	var tb mdTable
	tb.add(head...)
	row := func(name string, cell func(t TTLAnalysis) string) {
		cells := []string{name}
		for i := range rep.Runs {
			cells = append(cells, cell(ttls[i]))
		}
		tb.add(cells...)
	}
	row("worst-case retry span", func(t TTLAnalysis) string { return dur(t.Window) })
	row("longest key-to-duplicate wait seen", func(t TTLAnalysis) string { return dur(t.Observed) })
	row("manual redelivery window", func(t TTLAnalysis) string { return orNone(t.Manual) })
	row("**recommended TTL**", func(t TTLAnalysis) string { return "**" + dur(t.Recommended) + "**" })
	row("with manual redelivery", func(t TTLAnalysis) string { return dur(t.WithManual) })
	tb.write(w)
	w.printf("\nDuplicates let through, by TTL — in this run: arrivals in events · worst case: retries of one event after expiry.\n\n")
	tb = mdTable{}
	head[0] = "TTL"
	tb.add(head...)
	for j, ttl := range rep.ttlChoices() {
		cells := []string{dur(ttl)}
		for i := range rep.Runs {
			cells = append(cells, compactCell(ttls[i].Choices[j], ttls[i].Retries))
		}
		tb.add(cells...)
	}
	tb.write(w)
	w.printf("\n_%s._\n", capitalise(worstCaseWords))
	for i := range rep.Runs {
		for _, a := range wrongAdviceLines(rep.Runs[i], ttls[i]) {
			w.printf("\n> ✗ %s\n", mdEscape(a))
		}
	}
}

// mdTable is a Markdown table; the first row is the header.
type mdTable struct{ rows [][]string }

func (t *mdTable) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *mdTable) write(w *errWriter) {
	for i, row := range t.rows {
		cells := make([]string, len(row))
		for j, c := range row {
			cells[j] = strings.ReplaceAll(c, "|", `\|`)
		}
		w.printf("| %s |\n", strings.Join(cells, " | "))
		if i == 0 {
			w.printf("|%s\n", strings.Repeat("---|", len(row)))
		}
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// writeSignatureMarkdown writes the signature check: the verdict line, the
// provider's probe, and a table of the attacks.
func writeSignatureMarkdown(w *errWriter, rep *Report, r *Summary) {
	detail := rep.words().signatureLine(r)
	if _, after, ok := strings.Cut(detail, ": "); ok {
		detail = after // the verdict is in bold already
	}
	w.printf("\n**Signature check: %s** — %s\n", SignatureWords(r.SignatureCheck()), mdEscape(detail))
	if p := r.probeLine(); p != "" {
		w.printf("\n%s\n", mdEscape(p))
	}
	var tb mdTable
	tb.add("", "attack", "what came of it")
	for _, a := range r.Attacks() {
		if a.Probe {
			continue
		}
		mark, text := attackLine(&a)
		tb.add(mark, mdEscape(a.Attack), mdEscape(text))
	}
	if len(tb.rows) > 1 {
		w.printf("\n")
		tb.write(w)
	}
	if a := r.ToleranceAdvice(); a != "" {
		w.printf("\n%s\n", mdEscape(a))
	}
}

// writeLatencyMarkdown writes the handler's response times and the headroom
// to every timeout.
func writeLatencyMarkdown(w *errWriter, rep *Report, r *Summary) {
	w.printf("\n### Response time and timeout headroom\n\n%s\n", mdEscape(r.latencyLine()))
	if !r.Measured() {
		return
	}
	var tb mdTable
	tb.add("policy", "timeout", "headroom", "verdict")
	for _, h := range r.Headroom(rep.Timeouts) {
		name := mdEscape(h.Policy)
		if h.InUse {
			name = "**" + name + "** (in use)"
		}
		tb.add(name, dur(h.Timeout), headroomCell(&h), mdEscape(headroomWords(r, &h)))
	}
	w.printf("\n")
	tb.write(w)
}

// headroomCell shows the time to spare, or how far over the timeout the
// slowest answer went.
func headroomCell(h *Headroom) string {
	switch {
	case h.Verdict == HeadroomUnmeasured:
		return "?"
	case h.Verdict == HeadroomTooSlow && h.Spare >= 0:
		return "none" // cut off at the timeout: how far past it is unknown
	case h.Spare < 0:
		return "−" + ms(-h.Spare)
	}
	return ms(h.Spare)
}

// chartFiles are the chart files the Markdown report shows.
func (rep *Report) chartFiles() []string {
	if len(rep.ChartFiles) > 0 {
		return rep.ChartFiles
	}
	if rep.Chart != "" {
		return []string{rep.Chart}
	}
	return nil
}
