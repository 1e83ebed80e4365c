package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Report is a whole report: every run of a stream and the options it is
// rendered with.
type Report struct {
	Runs []*Summary
	// TTLs are the TTL choices compared; nil means DefaultTTLs.
	TTLs []time.Duration
	// Timeline is how many events' timelines the text shows; 0 hides it.
	Timeline int
	// Chart is the chart file written beside the report ("" for none): the
	// markdown report shows it, the JSON names it.
	Chart string
	// ChartFiles are every chart file written beside the report, Chart
	// first, when there are several: the Markdown report shows each.
	ChartFiles []string
	// Timeouts are the providers' timeouts the handler's response times are
	// compared with, besides each run's own (the policy catalogue's).
	Timeouts []Timeout
	// Gates are the --fail-on gates checked against the runs (CheckGates);
	// each run's show in its section.
	Gates []GateResult
	// Verbose makes the text report the full one: the TTL table, the
	// response-time headroom and the per-event timeline besides the
	// headline.
	Verbose bool
	// Width is the width the text report wraps its lines to; 0 means
	// DefaultWidth, and a negative width leaves every line whole.
	Width int
	// Spelling names the settings the report's advice names the way its
	// reader sets them (nil: the Go way, Config.Effects; the retrysim
	// command spells them as its flags).
	Spelling simulator.Spelling
}

// RecommendedTTL is the largest recommendation over the runs.
func (rep *Report) RecommendedTTL() time.Duration {
	var m time.Duration
	for _, r := range rep.Runs {
		m = max(m, r.TTL(rep.TTLs).Recommended)
	}
	return m
}

var dur = policies.FormatDuration

// WriteText writes the report for a person at a terminal: a headline of
// at most 30 lines for a run, leading with the verdict, the duplicates,
// what to change and the TTL, every line wrapped to Report.Width. Verbose
// adds the full TTL table, each forged request's answers, the
// response-time headroom and each event's attempts.
func WriteText(w io.Writer, rep *Report) error {
	return buffered(w, func(w io.Writer) error { return writeText(w, rep) })
}

func writeText(w io.Writer, rep *Report) error {
	ww := &wrapWriter{w: w, width: rep.width()}
	ew := &errWriter{w: ww, field: EscapeText}
	for i, r := range rep.Runs {
		if i > 0 {
			ew.printf("\n")
		}
		writeRunText(ew, rep, r)
	}
	if len(rep.Runs) > 1 {
		writeCompareText(ew, rep)
		writeOverall(ew, rep)
	}
	if len(rep.Runs) > 0 && !rep.Verbose {
		ew.printf("\n(%s adds %s)\n", rep.words().of(SettingVerbose), verboseAdds(rep))
	}
	ew.fail(ww.flush())
	return ew.err
}

// verboseAdds lists what Verbose would add to rep: each forged request's
// answers only when a run sent some.
func verboseAdds(rep *Report) string {
	forged := ""
	for _, r := range rep.Runs {
		if len(r.Attacks()) > 0 {
			forged = "each forged request's answers, "
		}
	}
	return "the TTL tables, " + forged + "the response-time headroom and a sample of events' attempts, every kind of fate among them"
}

// width is the width the text wraps to.
func (rep *Report) width() int {
	if rep.Width != 0 {
		return rep.Width
	}
	return DefaultWidth
}

// headerLine names the run: policy, scenario, seed, events and their type.
func headerLine(r *Summary) string {
	return fmt.Sprintf("retrysim · %s · %s · %s · %s%s", r.policyWords(), r.scenarioWords(), r.seedWords(), r.plannedWords(), r.typeWords(plainType))
}

func writeRunText(w *errWriter, rep *Report, r *Summary) {
	w.printf("%s\n", headerLine(r))
	w.printf("target: %s\n", r.Target)
	switch {
	case r.RestartFailed != nil:
		w.printf("STOPPED: %s\n", restartFailedWords(r.RestartFailed))
	case r.Interrupted:
		w.printf("INTERRUPTED: the run was stopped before its end; what follows covers the attempts made.\n")
	}
	if r.Incomplete {
		w.printf("INCOMPLETE: the results stream stops before this run's end record (cut off); what follows covers only the records in it.\n")
	}
	w.printf("\n")
	if h := r.handshakeLine(); h != "" && r.HandshakeFailed() {
		w.printf("  %s\n", h) // the first thing to fix
	}
	// The verdict, the duplicates, what to change and the TTL come first.
	w.printf("  side effects: %s\n", rep.words().verdictLine(r))
	w.printf("  duplicates: %s\n", duplicatesLine(r))
	if c := causeLine(r); c != "" {
		w.printf("  %s: %s\n", causeHead(r), c)
	}
	if advice := rep.words().adviceLines(r, rep.Timeouts); len(advice) > 0 {
		w.printf("  what to change:\n")
		for _, a := range advice {
			w.printf("    - %s\n", a)
		}
	}
	t := r.TTL(rep.TTLs)
	w.printf("  dedup TTL: %s\n", ttlHeadline(r, t))
	if rep.Verbose {
		writeRunTTL(w, r, t)
	}
	// Then what else happened.
	w.printf("  %s · %s\n", deliveredLine(r), attemptsLine(r))
	if !r.DisabledAt.IsZero() {
		w.printf("  ENDPOINT DISABLED at +%s: %s; %s never delivered because of it%s\n",
			dur(r.DisabledAt.Sub(r.Start)), disabledWords(r), counted(r.LostToDisable, "event", "events"), idList(r.LostToDisableIDs, r.LostToDisable))
	}
	if t := tenantsLine(r); t != "" {
		w.printf("  tenants: %s\n", t)
	}
	if len(r.Restarts) > 0 {
		w.printf("  handler restarted %s (killed and started again) at %s\n", timesWord(len(r.Restarts)), restartList(r.Restarts))
	}
	if r.ReorderedPairs == ReorderedUncounted {
		w.printf("  order: not counted: the temporary file of the first arrivals could not be read back\n")
	}
	if r.ReorderedPairs > 0 {
		w.printf("  order: %d %s of events about the same object first reached your handler out of order (the newer one first)\n", r.ReorderedPairs, plural(r.ReorderedPairs, "pair", "pairs"))
	}
	w.printf("  signature check: %s\n", rep.words().signatureLine(r))
	if h := r.handshakeLine(); h != "" && !r.HandshakeFailed() {
		w.printf("    %s\n", h)
	}
	if p := r.probeLine(); p != "" {
		w.printf("    %s\n", p)
	}
	// The summary names the attacks that got through; each one's answers
	// are detail.
	for _, a := range r.Attacks() {
		if a.Probe || !rep.Verbose {
			continue
		}
		mark, text := attackLine(&a)
		w.printf("    %s %s: %s\n", mark, a.Attack, text)
	}
	if a := r.ToleranceAdvice(); a != "" {
		w.printf("    – %s\n", a)
	}
	w.printf("  response time: %s\n", r.latencyLine())
	if rep.Verbose {
		for _, l := range r.headroomLines(rep.Timeouts) {
			w.printf("    %s\n", l)
		}
	}
	if rep.Verbose && rep.Timeline > 0 && r.TimelineCount() > 0 {
		sh, err := r.Sample(rep.Timeline)
		w.fail(err)
		w.printf("\n  timeline of %s (+ virtual time since the event's first attempt):\n", sampleHead(sh))
		if s := sampleShows(sh); s != "" {
			w.printf("    %s\n", s)
		}
		for _, ev := range sh.Events {
			w.printf("    %s  %s%s\n", ev.ID, timelineLine(ev), effectsMark(r, ev.ID))
		}
	}
	if gates := GatesFor(rep.Gates, r); len(gates) > 0 {
		w.printf("  CI gates (%s):\n", rep.words().of(SettingGates))
		for _, g := range gates {
			w.printf("    %s %-18s %s\n", gateMark[g.Status], g.Gate, g.Message)
		}
	}
}

// duplicatesLine says how often the handler was reached and how many of
// those arrivals were duplicates.
func duplicatesLine(r *Summary) string {
	s := fmt.Sprintf("your handler was reached %s by %s", timesWord(r.HandlerArrivals), counted(r.Attempts, "attempt", "attempts"))
	if r.RefusedArrivals > 0 {
		s += fmt.Sprintf(", refused %d (4xx)", r.RefusedArrivals)
	}
	s += fmt.Sprintf(" → %s", counted(r.DuplicateArrivals, "duplicate arrival", "duplicate arrivals"))
	if r.DuplicateEvents > 0 {
		s += " in " + counted(r.DuplicateEvents, "event", "events")
	}
	return s
}

// timesWord says how often: "once", "twice", "3 times".
func timesWord(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

var gateMark = map[GateStatus]string{GatePass: "✓", GateFail: "✗", GateUnchecked: "?"}

// ms shows a measured time: to a tenth of a millisecond under a second,
// to a hundredth of a second above.
func ms(d time.Duration) string {
	if d < time.Second && d > -time.Second {
		return fmt.Sprintf("%.1fms", float64(d.Microseconds())/1000)
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

var outcomeOrder = []simulator.Outcome{
	simulator.Delivered, simulator.LostResponse, simulator.Timeout, simulator.HTTPError,
	simulator.InvalidResponse, simulator.Redirect, simulator.ConnectionFailed,
}

// idList shows the first few of ids (of total) after a colon.
func idList(ids []string, total int) string {
	if len(ids) == 0 {
		return ""
	}
	const show = 3
	s := ": " + strings.Join(ids[:min(show, len(ids))], ", ")
	if total > show {
		s += fmt.Sprintf(" and %d more", total-show)
	}
	return s
}

// restartList shows restart moments: all of up to five, else the first
// four and the last.
func restartList(at []time.Duration) string {
	parts := make([]string, 0, 6)
	for i, d := range at {
		switch {
		case len(at) <= 5 || i < 4 || i == len(at)-1:
			parts = append(parts, "+"+dur(d))
		case i == 4:
			parts = append(parts, "…")
		}
	}
	return strings.Join(parts, ", ")
}

func effectsMark(r *Summary, id string) string {
	if n := r.ProcessedMoreThanOnce(id); n > 0 {
		return fmt.Sprintf("  ✗ processed %d times", n)
	}
	return ""
}

func timelineLine(ev *EventTimeline) string {
	// Consecutive attempts that came to the same thing are written once,
	// with the span and the count: "+0s…+3d connection_failed ·not reached ×16".
	var parts []string
	var label, from, to string
	count := 0
	flush := func() {
		switch count {
		case 0:
			return
		case 1:
			parts = append(parts, from+" "+label)
		default:
			parts = append(parts, fmt.Sprintf("%s…%s %s ×%d", from, to, label, count))
		}
	}
	for _, a := range ev.Attempts {
		at := "+" + dur(a.At)
		l := attemptLabel(a)
		if count > 0 && l == label && a.Copy == 0 && !a.Manual {
			to = at
			count++
			continue
		}
		flush()
		label, from, to, count = l, at, at, 1
		if a.Copy > 0 || a.Manual {
			// Never merged: each of these is a story of its own.
			flush()
			count = 0
		}
	}
	flush()
	line := strings.Join(parts, " → ")
	if len(ev.Attempts) == 0 {
		line = "never sent"
	}
	switch ev.Fate {
	case simulator.FateExhausted:
		line += "  ✗ gave up"
	case simulator.FateDisabled:
		line += "  ✗ endpoint disabled"
	case simulator.FateInterrupted:
		line += "  (interrupted)"
	case simulator.FateStopped:
		line += "  ✗ retries stopped by the handler"
	}
	return line
}

// attemptLabel is what the timeline says of one attempt, without its time.
func attemptLabel(a simulator.Record) string {
	s := string(a.Outcome)
	switch {
	case a.Copy > 0:
		s = "the same request again at once: " + s
	case a.Manual:
		s = "resent by hand: " + s
	}
	switch {
	case a.Outcome == simulator.LostResponse || a.Outcome == simulator.Timeout:
		if a.HandlerStatus != 0 {
			s += fmt.Sprintf("(handler %d)", a.HandlerStatus)
		}
	case a.Status != 0:
		s += fmt.Sprintf(" %d", a.Status)
	}
	if !a.Reached && a.Outcome != simulator.Delivered {
		s += " ·not reached"
	}
	return s
}

// ttlHeadline is the TTL recommendation first, then why.
func ttlHeadline(r *Summary, t TTLAnalysis) string {
	s := "recommend " + dur(t.Recommended)
	if t.WithManual > t.Recommended {
		s += fmt.Sprintf(" (%s to also cover manual redelivery within %s)", dur(t.WithManual), dur(t.Manual))
	}
	if r.DuplicatesAfterKey() == 0 {
		// No wait was measured: "the longest wait was 0s" would say one was.
		s += fmt.Sprintf(": %s retries for up to %s by itself, and no duplicate came after a stored key in this run; that span, plus %d%%, rounded up",
			r.Policy, dur(t.Window), int(TTLBuffer*100))
	} else {
		s += fmt.Sprintf(": %s retries for up to %s by itself, and the longest wait from a stored key to a duplicate in this run was %s; the longer of the two, plus %d%%, rounded up",
			r.Policy, dur(t.Window), dur(t.Observed), int(TTLBuffer*100))
	}
	return s + keyOn(r)
}

func ttlReason(r *Summary, t TTLAnalysis) string {
	s := fmt.Sprintf("%s retries for up to %s by itself; the longest wait from a stored key to a duplicate in this run was %s → recommend %s (the longer of the two, plus %d%%, rounded up)",
		r.Policy, dur(t.Window), dur(t.Observed), dur(t.Recommended), int(TTLBuffer*100))
	if r.DuplicatesAfterKey() == 0 {
		s = fmt.Sprintf("%s retries for up to %s by itself; no duplicate came after a stored key in this run → recommend %s (that span, plus %d%%, rounded up)",
			r.Policy, dur(t.Window), dur(t.Recommended), int(TTLBuffer*100))
	}
	if t.Manual > 0 {
		s += fmt.Sprintf("; %s to also cover manual redelivery (%s)", dur(t.WithManual), dur(t.Manual))
	}
	return s + keyOn(r)
}

// errWriter keeps the first write error, so the writers can print freely and
// still never lose one.
type errWriter struct {
	w   io.Writer
	err error
	// field escapes every string printf is given for the format (a value
	// from outside never breaks its line or drives a terminal); nil
	// leaves them as they are.
	field func(string) string
}

// fail keeps err as the writer's error unless it already has one.
func (e *errWriter) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err != nil {
		return
	}
	if e.field != nil {
		for i, a := range args {
			if s, ok := a.(string); ok {
				args[i] = e.field(s)
			}
		}
	}
	_, e.err = fmt.Fprintf(e.w, format, args...)
}
