package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Timeout is one provider policy's timeout. A report compares the handler's
// real response times with every timeout it is given (Report.Timeouts),
// so that a handler fine for Stripe's 30 s shows as too slow for Slack's
// 3 s; the caller passes the catalogue's, the run record carries its own.
type Timeout struct {
	Policy  string
	Timeout time.Duration
}

// Headroom verdicts.
const (
	// HeadroomOK: every answer came well inside the timeout.
	HeadroomOK = "ok"
	// HeadroomClose: every answer came inside the timeout, but the slowest
	// used more than half of it (twice as slow on a bad day would fail).
	HeadroomClose = "close"
	// HeadroomTooSlow: at least one answer came after the timeout.
	HeadroomTooSlow = "too_slow"
	// HeadroomUnknown: nothing was measured, or answers this timeout would
	// have waited for were cut off at the run's shorter one.
	HeadroomUnknown = "unknown"
)

// closeShare is the share of a timeout above which the slowest answer is
// too close to it.
const closeShare = 0.5

// Headroom is how the handler's answers compare with one provider's
// timeout.
type Headroom struct {
	Policy  string
	Timeout time.Duration
	// InUse says it is the timeout of the run's own policy.
	InUse bool
	// Spare is the timeout minus the slowest answer; negative when too slow.
	Spare time.Duration
	// Over counts the answers slower than the timeout: those measured, and
	// the attempts the run's own timeout cut off when this one is no longer.
	Over int
	// Unmeasured counts attempts the run's timeout cut off that this longer
	// timeout might have waited out.
	Unmeasured int
	// Verdict is HeadroomOK, HeadroomClose, HeadroomTooSlow or
	// HeadroomUnknown.
	Verdict string
}

// Measured reports whether the run measured real response times (a dry run
// measures none).
func (r *Run) Measured() bool {
	return r.HandlerTimeouts > 0 || r.Answers() > 0
}

// Answers is how many response times the run measured: none in a
// modelled run, whose handler answers at once by assumption.
func (r *Run) Answers() int {
	if r.Modelled() {
		return 0
	}
	return r.latencies.len()
}

// Headroom compares the handler's response times with the run's own
// timeout and with each of timeouts: the run's policy first, then the
// others by timeout and name.
func (r *Run) Headroom(timeouts []Timeout) []Headroom {
	all := []Timeout{{Policy: r.Policy, Timeout: r.Timeout}}
	for _, t := range timeouts {
		if t.Policy != r.Policy {
			all = append(all, t)
		}
	}
	slices.SortStableFunc(all[1:], func(a, b Timeout) int {
		if c := cmp.Compare(a.Timeout, b.Timeout); c != 0 {
			return c
		}
		return strings.Compare(a.Policy, b.Policy)
	})
	out := make([]Headroom, len(all))
	for i, t := range all {
		out[i] = r.headroom(t)
		out[i].InUse = i == 0
	}
	return out
}

func (r *Run) headroom(t Timeout) Headroom {
	h := Headroom{Policy: t.Policy, Timeout: t.Timeout, Verdict: HeadroomUnknown}
	if !r.Measured() {
		return h
	}
	slowest := r.Percentile(100)
	// Exact at the run's own timeout; for others, within 0.1% of the
	// timeout once a run has more than 65,536 answers (see sample).
	h.Over = r.latencies.countAbove(t.Timeout)
	if r.HandlerTimeouts > 0 {
		if t.Timeout <= r.Timeout {
			h.Over += r.HandlerTimeouts
			slowest = max(slowest, r.Timeout)
		} else {
			h.Unmeasured = r.HandlerTimeouts
		}
	}
	h.Spare = t.Timeout - slowest
	switch {
	case h.Over > 0:
		h.Verdict = HeadroomTooSlow
	case h.Unmeasured > 0:
		h.Verdict = HeadroomUnknown
	case float64(slowest) > closeShare*float64(t.Timeout):
		h.Verdict = HeadroomClose
	default:
		h.Verdict = HeadroomOK
	}
	return h
}

// latencyLine says the handler's response-time distribution in one line.
func (r *Run) latencyLine() string {
	if !r.Measured() {
		if r.Modelled() {
			return "not measured (nothing was sent: a dry run models the handler as answering at once)"
		}
		return "not measured: no delivery got an answer from your handler"
	}
	if r.Answers() == 0 {
		// Every attempt that reached the handler was cut off: there is no
		// time to show, only that none came.
		return fmt.Sprintf("no answer came: %s that reached your handler got none within %s's %s", allOf(r.HandlerTimeouts, "attempt", "attempts"), r.Policy, dur(r.Timeout))
	}
	s := fmt.Sprintf("p50 %s · p95 %s · p99 %s · max %s over %s (real time, measured by retrysim)",
		ms(r.Percentile(50)), ms(r.Percentile(95)), ms(r.Percentile(99)), ms(r.Percentile(100)), counted(r.Answers(), "answer", "answers"))
	if r.HandlerTimeouts > 0 {
		s += fmt.Sprintf("; %s got no answer within %s's %s and are not in these figures", counted(r.HandlerTimeouts, "attempt", "attempts"), r.Policy, dur(r.Timeout))
	}
	return s
}

// headroomLines say the headroom to the run's own timeout, then to the
// others grouped by verdict and timeout.
func (r *Run) headroomLines(timeouts []Timeout) []string {
	if !r.Measured() {
		return nil
	}
	hs := r.Headroom(timeouts)
	own := hs[0]
	lines := []string{fmt.Sprintf("%s (in use), %s timeout: %s", own.Policy, dur(own.Timeout), headroomWords(r, &own))}
	type group struct {
		verdict string
		timeout time.Duration
		names   []string
		h       Headroom
	}
	var groups []*group
	for _, h := range hs[1:] {
		var g *group
		for _, x := range groups {
			if x.verdict == h.Verdict && x.timeout == h.Timeout {
				g = x
			}
		}
		if g == nil {
			g = &group{verdict: h.Verdict, timeout: h.Timeout, h: h}
			groups = append(groups, g)
		}
		g.names = append(g.names, h.Policy)
	}
	var fine []string
	for _, v := range []string{HeadroomTooSlow, HeadroomClose, HeadroomUnknown, HeadroomOK} {
		for _, g := range groups {
			if g.verdict != v {
				continue
			}
			names := strings.Join(g.names, ", ")
			if v == HeadroomOK {
				fine = append(fine, fmt.Sprintf("%s (%s)", names, dur(g.timeout)))
				continue
			}
			lines = append(lines, fmt.Sprintf("%s (%s): %s", names, dur(g.timeout), headroomWords(r, &g.h)))
		}
	}
	if len(fine) > 0 {
		lines = append(lines, "fine for "+strings.Join(fine, " · "))
	}
	return lines
}

// headroomWords says one headroom's verdict with its figures.
func headroomWords(r *Run, h *Headroom) string {
	switch h.Verdict {
	case HeadroomTooSlow:
		s := fmt.Sprintf("✗ TOO SLOW: %d of %s took longer", h.Over, counted(r.Answers()+r.HandlerTimeouts, "answer", "answers"))
		cut := 0
		if h.Timeout <= r.Timeout {
			cut = r.HandlerTimeouts
		}
		if h.Over > cut {
			s += " (slowest " + ms(r.Percentile(100)) + ")"
		}
		if cut > 0 {
			s += fmt.Sprintf(" (%d got none within %s's %s)", cut, r.Policy, dur(r.Timeout))
		}
		return s
	case HeadroomClose:
		return fmt.Sprintf("close: %s to spare, the slowest answer (%s) used %.0f%% of it", ms(h.Spare), ms(h.Timeout-h.Spare), 100*float64(h.Timeout-h.Spare)/float64(h.Timeout))
	case HeadroomUnknown:
		if h.Unmeasured > 0 {
			return fmt.Sprintf("unknown: %s cut off at %s's %s might have answered within it", counted(h.Unmeasured, "attempt", "attempts"), r.Policy, dur(r.Timeout))
		}
		return "unknown: nothing measured"
	}
	return fmt.Sprintf("✓ %s to spare", ms(h.Spare))
}

// tooSlowFor names the timeouts the handler was too slow for, shortest
// first ("slack 3s").
func (r *Run) tooSlowFor(timeouts []Timeout) []string {
	var out []string
	for _, h := range r.Headroom(timeouts) {
		if h.Verdict == HeadroomTooSlow {
			out = append(out, h.Policy+" "+dur(h.Timeout))
		}
	}
	return out
}
