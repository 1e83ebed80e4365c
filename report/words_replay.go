package report

import (
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// The words of a replay (ReplayResult.Judge and Checks decide it): its
// verdict line and each check's sentence.

// ReplayVerdictLine says a replay's verdict in one line, with what to do
// when it is unknown and how long the effects took to settle, naming
// settings as sp spells them (nil: the Go way).
func ReplayVerdictLine(r *simulator.ReplayResult, sp simulator.Spelling) string {
	line := words{sp: sp}.replayVerdict(r, r.Judge())
	switch {
	case r.SettleS == 0 || !r.EffectsKnown:
	case r.EffectsUnsettled:
		line += fmt.Sprintf(" (effects read for %.1fs after the last send)", r.SettleS)
	default:
		line += fmt.Sprintf(" (effects settled %.1fs after the last send)", r.SettleS)
	}
	return line
}

func (w words) replayVerdict(r *simulator.ReplayResult, j simulator.ReplayJudgement) string {
	deliveries := plural(j.Sends, "delivery", "deliveries")
	switch j.Reason {
	case simulator.ReplayProcessedBefore:
		return fmt.Sprintf("IDEMPOTENT: no write for %d %s of %s, which had been processed before", j.Sends, deliveries, r.DedupID)
	case simulator.ReplayWroteOnce:
		return fmt.Sprintf("IDEMPOTENT: one write for %d %s of %s", j.Sends, deliveries, r.DedupID)
	case simulator.ReplayWroteMore:
		return fmt.Sprintf("NOT IDEMPOTENT: %d writes for %d %s of one event (%s)", j.Writes, j.Sends, deliveries, r.DedupID)
	case simulator.ReplayOracleFailed:
		return "UNKNOWN: the effects oracle failed (" + r.EffectsError + ")"
	case simulator.ReplayNoOracle:
		return `UNKNOWN: retrysim cannot see your handler's writes; serve {"<dedup id>": <times processed>} and pass ` + w.of(simulator.SettingEffects) + ` for a verdict`
	case simulator.ReplayHandlersRunning:
		return fmt.Sprintf("UNKNOWN: %d handler call(s) cut off by the %s timeout were still running one timeout later, so their writes may be missing; make your handler finish (or give up on its request's context) within the timeout",
			r.HandlersRunning, r.Policy)
	case simulator.ReplayUnsettled:
		return fmt.Sprintf("UNKNOWN: the effects oracle was still changing when retrysim stopped waiting (your handler may still have been at work, or was cut off by the %s timeout), so a write may be missing",
			r.Policy)
	}
	return "UNKNOWN: the handler never processed the event; see its answers above"
}

// ReplayCheckWords is one of a replay's checks as its reports show it.
type ReplayCheckWords struct {
	// Status is simulator.CheckPass, CheckFail or CheckUnverified.
	Status string `json:"status"`
	// What says what was checked and what was seen, in words.
	What string `json:"what"`
}

// ReplayChecks words a replay's checks (ReplayResult.Checks), naming
// settings as sp spells them (nil: the Go way).
func ReplayChecks(r *simulator.ReplayResult, sp simulator.Spelling) []ReplayCheckWords {
	checks := r.Checks()
	if checks == nil {
		return nil
	}
	w := words{sp: sp}
	out := make([]ReplayCheckWords, len(checks))
	for i, c := range checks {
		out[i] = ReplayCheckWords{Status: c.Status, What: w.replayCheck(r, c)}
	}
	return out
}

func (w words) replayCheck(r *simulator.ReplayResult, c simulator.ReplayCheck) string {
	n := len(r.Sends)
	span := fmt.Sprintf("calls 2–%d", n)
	if n == 2 {
		span = "call 2"
	}
	noOracle := "writes unknown (no effects oracle; pass " + w.of(simulator.SettingEffects) + ")"
	switch c.Kind {
	case simulator.CheckFirstCall:
		first := &r.Sends[0]
		what := fmt.Sprintf("call 1 answered %s and %s", answerWords(first), wroteWords(first.Writes))
		if !first.OK() {
			what += refusalHint(first)
		}
		if r.Before > 0 {
			what += fmt.Sprintf(" (the event had been processed %s before the replay, so no call should write)", times(r.Before))
		}
		return what
	case simulator.CheckLaterAnswers:
		if len(c.Sends) == 0 {
			return span + " answered 2xx"
		}
		who := fmt.Sprintf("%d of %s", len(c.Sends), span)
		if n == 2 {
			who = span
		}
		return fmt.Sprintf("%s did not answer 2xx: %s — a non-2xx answer to a duplicate makes the provider deliver it again", who, sendsAnswers(r, c.Sends))
	case simulator.CheckLaterWrites:
		switch {
		case c.Writes < 0:
			return span + ": " + noOracle
		case c.Writes == 0:
			return span + " wrote nothing"
		}
		nums := make([]string, len(c.Sends))
		for i, s := range c.Sends {
			nums[i] = fmt.Sprintf("#%d", s)
		}
		return fmt.Sprintf("%s wrote %s: %s", span, times(c.Writes), itemList(nums))
	case simulator.CheckOverlapAnswers:
		if len(c.Sends) == 0 {
			return fmt.Sprintf("all %d overlapping calls answered 2xx", n)
		}
		return fmt.Sprintf("%d of %d overlapping calls did not answer 2xx: %s", len(c.Sends), n, sendsAnswers(r, c.Sends))
	case simulator.CheckOverlapWrites:
		switch {
		case c.Writes < 0:
			return noOracle
		case c.Status == simulator.CheckPass:
			return fmt.Sprintf("the %d overlapping calls wrote %s in all", n, times(c.Writes))
		}
		return fmt.Sprintf("the %d overlapping calls wrote %s in all, not %s", n, times(c.Writes), times(r.ExpectedWrites()))
	}
	return string(c.Kind)
}

// sendsAnswers names the sends numbered nums with their answers: "#2 500".
func sendsAnswers(r *simulator.ReplayResult, nums []int) string {
	items := make([]string, len(nums))
	for i, n := range nums {
		items[i] = fmt.Sprintf("#%d %s", n, answerWords(&r.Sends[n-1]))
	}
	return itemList(items)
}

func answerWords(s *simulator.ReplaySend) string {
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

func refusalHint(s *simulator.ReplaySend) string {
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

// itemList joins items with commas, the first six and how many more.
func itemList(items []string) string {
	if len(items) > 6 {
		return strings.Join(items[:6], ", ") + fmt.Sprintf(", and %d more", len(items)-6)
	}
	return strings.Join(items, ", ")
}
