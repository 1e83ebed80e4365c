package simulator

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// Statuses of a ReplayCheck: CheckUnverified when there was no oracle to
// check the writes with ("unknown").
const (
	CheckPass       = "pass"
	CheckFail       = "fail"
	CheckUnverified = "unknown"
)

// ReplayCheck is one thing a careful engineer checks by hand after sending
// the same delivery again: did the first call write, did the others answer
// 2xx, did they leave the data alone.
type ReplayCheck struct {
	// Status is CheckPass, CheckFail or CheckUnverified (no oracle).
	Status string `json:"status"`
	// What says what was checked and what was seen, in words.
	What string `json:"what"`
}

// Writes is how many times the handler processed the event during the
// replay, by the oracle; -1 when unknown.
func (r *ReplayResult) Writes() int {
	if !r.EffectsKnown {
		return -1
	}
	return r.After - r.Before
}

// ExpectedWrites is what an idempotent handler writes during the replay: 1,
// or 0 when the event had been processed before it.
func (r *ReplayResult) ExpectedWrites() int {
	if r.Before > 0 {
		return 0
	}
	return 1
}

// Verdict is VerdictIdempotent when the handler wrote what it should (once
// in all, or not at all for an event it already had), VerdictNotIdempotent
// when it wrote more, and VerdictNone without an oracle, when the
// handler never processed the event, or when a write of a cut-off handler
// may still be missing from the count.
func (r *ReplayResult) Verdict() Verdict {
	w := r.Writes()
	switch {
	case w < 0:
		return VerdictNone
	case w > r.ExpectedWrites():
		return VerdictNotIdempotent
	case w == 0 && r.Before == 0:
		return VerdictNone
	case r.HandlersRunning > 0 || r.EffectsUnsettled:
		return VerdictNone // a write may still be missing from the count
	}
	return VerdictIdempotent
}

// VerdictLine says the verdict in one line, with what to do when it is
// unknown, and how long the effects took to settle; it names settings the
// Go way (see SpellVerdictLine).
func (r *ReplayResult) VerdictLine() string { return r.SpellVerdictLine(nil) }

// SpellVerdictLine is VerdictLine naming settings as sp spells them.
func (r *ReplayResult) SpellVerdictLine(sp Spelling) string {
	line := r.verdictLine(sp)
	switch {
	case r.SettleS == 0 || !r.EffectsKnown:
	case r.EffectsUnsettled:
		line += fmt.Sprintf(" (effects read for %.1fs after the last send)", r.SettleS)
	default:
		line += fmt.Sprintf(" (effects settled %.1fs after the last send)", r.SettleS)
	}
	return line
}

func (r *ReplayResult) verdictLine(sp Spelling) string {
	n := len(r.Sends)
	switch r.Verdict() {
	case VerdictIdempotent:
		if r.Before > 0 {
			return fmt.Sprintf("IDEMPOTENT: no write for %d %s of %s, which had been processed before", n, policies.Plural(n, "delivery", "deliveries"), r.DedupID)
		}
		return fmt.Sprintf("IDEMPOTENT: one write for %d %s of %s", n, policies.Plural(n, "delivery", "deliveries"), r.DedupID)
	case VerdictNotIdempotent:
		w := r.Writes()
		return fmt.Sprintf("NOT IDEMPOTENT: %d writes for %d %s of one event (%s)", w, n, policies.Plural(n, "delivery", "deliveries"), r.DedupID)
	}
	switch {
	case r.EffectsError != "":
		return "UNKNOWN: the effects oracle failed (" + r.EffectsError + ")"
	case !r.EffectsKnown:
		return `UNKNOWN: retrysim cannot see your handler's writes; serve {"<dedup id>": <times processed>} and pass ` + sp.Of(SettingEffects) + ` for a verdict`
	case r.HandlersRunning > 0:
		return fmt.Sprintf("UNKNOWN: %d handler call(s) cut off by the %s timeout were still running one timeout later, so their writes may be missing; make your handler finish (or give up on its request's context) within the timeout",
			r.HandlersRunning, r.Policy)
	case r.EffectsUnsettled:
		return fmt.Sprintf("UNKNOWN: the effects oracle was still changing when retrysim stopped waiting (your handler may still have been at work, or was cut off by the %s timeout), so a write may be missing",
			r.Policy)
	}
	return "UNKNOWN: the handler never processed the event; see its answers above"
}

// Checks lists the checks, in the order an engineer makes them, naming
// settings the Go way (see SpellChecks).
func (r *ReplayResult) Checks() []ReplayCheck { return r.SpellChecks(nil) }

// SpellChecks is Checks naming settings as sp spells them.
func (r *ReplayResult) SpellChecks(sp Spelling) []ReplayCheck {
	if len(r.Sends) == 0 {
		return nil
	}
	if r.Concurrent {
		return r.concurrentChecks(sp)
	}
	var out []ReplayCheck
	first := &r.Sends[0]
	want := r.ExpectedWrites()
	c := ReplayCheck{Status: CheckPass}
	c.What = fmt.Sprintf("call 1 answered %s and %s", answerWords(first), wroteWords(first.Writes))
	switch {
	case !first.OK():
		c.Status = CheckFail
		c.What += refusalHint(first)
	case first.Writes < 0:
		c.Status = CheckUnverified
	case first.Writes != want:
		c.Status = CheckFail
	}
	if r.Before > 0 {
		c.What += fmt.Sprintf(" (the event had been processed %s before the replay, so no call should write)", times(r.Before))
	}
	out = append(out, c)
	if len(r.Sends) == 1 {
		return out
	}
	rest := r.Sends[1:]
	span := fmt.Sprintf("calls 2–%d", len(r.Sends))
	if len(r.Sends) == 2 {
		span = "call 2"
	}
	var bad []string
	for i := range rest {
		if !rest[i].OK() {
			bad = append(bad, fmt.Sprintf("#%d %s", rest[i].N, answerWords(&rest[i])))
		}
	}
	if len(bad) == 0 {
		out = append(out, ReplayCheck{Status: CheckPass, What: span + " answered 2xx"})
	} else {
		who := fmt.Sprintf("%d of %s", len(bad), span)
		if len(rest) == 1 {
			who = span
		}
		out = append(out, ReplayCheck{Status: CheckFail, What: fmt.Sprintf("%s did not answer 2xx: %s — a non-2xx answer to a duplicate makes the provider deliver it again", who, list(bad))})
	}
	writes, unknown := 0, false
	var wrote []string
	for i := range rest {
		switch w := rest[i].Writes; {
		case w < 0:
			unknown = true
		case w > 0:
			writes += w
			wrote = append(wrote, fmt.Sprintf("#%d", rest[i].N))
		}
	}
	switch {
	case unknown:
		out = append(out, ReplayCheck{Status: CheckUnverified, What: span + ": writes unknown (no effects oracle; pass " + sp.Of(SettingEffects) + ")"})
	case writes == 0:
		out = append(out, ReplayCheck{Status: CheckPass, What: span + " wrote nothing"})
	default:
		out = append(out, ReplayCheck{Status: CheckFail, What: fmt.Sprintf("%s wrote %s: %s", span, times(writes), list(wrote))})
	}
	return out
}

func (r *ReplayResult) concurrentChecks(sp Spelling) []ReplayCheck {
	n := len(r.Sends)
	var bad []string
	for i := range r.Sends {
		if !r.Sends[i].OK() {
			bad = append(bad, fmt.Sprintf("#%d %s", r.Sends[i].N, answerWords(&r.Sends[i])))
		}
	}
	var out []ReplayCheck
	if len(bad) == 0 {
		out = append(out, ReplayCheck{Status: CheckPass, What: fmt.Sprintf("all %d overlapping calls answered 2xx", n)})
	} else {
		out = append(out, ReplayCheck{Status: CheckFail, What: fmt.Sprintf("%d of %d overlapping calls did not answer 2xx: %s", len(bad), n, list(bad))})
	}
	w, want := r.Writes(), r.ExpectedWrites()
	switch {
	case w < 0:
		out = append(out, ReplayCheck{Status: CheckUnverified, What: "writes unknown (no effects oracle; pass " + sp.Of(SettingEffects) + ")"})
	case w == want:
		out = append(out, ReplayCheck{Status: CheckPass, What: fmt.Sprintf("the %d overlapping calls wrote %s in all", n, times(w))})
	default:
		out = append(out, ReplayCheck{Status: CheckFail, What: fmt.Sprintf("the %d overlapping calls wrote %s in all, not %s", n, times(w), times(want))})
	}
	return out
}

func answerWords(s *ReplaySend) string {
	switch {
	case s.Status != 0:
		return fmt.Sprint(s.Status)
	case s.Error != "":
		return "nothing (" + s.Error + ")"
	}
	return "nothing"
}

func wroteWords(w int) string {
	switch {
	case w < 0:
		return "its writes are unknown"
	case w == 0:
		return "wrote nothing"
	}
	return "wrote " + times(w)
}

func refusalHint(s *ReplaySend) string {
	if s.Status == 401 || s.Status == 403 {
		return ": the handler refused it; is the signature stale or made with another secret? Re-sign with the provider's secret"
	}
	return ""
}

func times(n int) string {
	switch n {
	case 0:
		return "nothing"
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

func list(items []string) string {
	if len(items) > 6 {
		return strings.Join(items[:6], ", ") + fmt.Sprintf(", and %d more", len(items)-6)
	}
	return strings.Join(items, ", ")
}
