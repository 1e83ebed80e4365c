package report

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Timeout is one provider policy's timeout. A report compares the handler's
// real response times with every timeout it is given (Report.Timeouts),
// so that a handler fine for Stripe's 30 s shows as too slow for Slack's
// 3 s; the caller passes the catalogue's, the run record carries its own.
type Timeout struct {
	Policy  string
	Timeout time.Duration
}

// TimeoutsOf are the timeouts of pols (a catalogue's every policy, the
// config file's included), in their order, for Report.Timeouts.
func TimeoutsOf(pols []policies.Policy) []Timeout {
	var out []Timeout
	for _, p := range pols {
		out = append(out, Timeout{Policy: p.Name, Timeout: p.Timeout.D()})
	}
	return out
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
	// HeadroomUnmeasured ("unknown"): nothing was measured, or answers this timeout would
	// have waited for were cut off at the run's shorter one.
	HeadroomUnmeasured = "unknown"
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
	// HeadroomUnmeasured.
	Verdict string
}

// Measured reports whether the run measured real response times (a dry run
// measures none).
func (r *Summary) Measured() bool {
	return r.HandlerTimeouts > 0 || r.Answers() > 0
}

// Answers is how many response times the run measured: none in a
// modelled run, whose handler answers at once by assumption.
func (r *Summary) Answers() int {
	if r.Modelled() {
		return 0
	}
	return r.latencies.len()
}

// Headroom compares the handler's response times with the run's own
// timeout and with each of timeouts: the run's policy first, then the
// others by timeout and name.
func (r *Summary) Headroom(timeouts []Timeout) []Headroom {
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

func (r *Summary) headroom(t Timeout) Headroom {
	h := Headroom{Policy: t.Policy, Timeout: t.Timeout, Verdict: HeadroomUnmeasured}
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
		h.Verdict = HeadroomUnmeasured
	case float64(slowest) > closeShare*float64(t.Timeout):
		h.Verdict = HeadroomClose
	default:
		h.Verdict = HeadroomOK
	}
	return h
}

// tooSlowFor names the timeouts the handler was too slow for, shortest
// first ("slack 3s").
func (r *Summary) tooSlowFor(timeouts []Timeout) []string {
	var out []string
	for _, h := range r.Headroom(timeouts) {
		if h.Verdict == HeadroomTooSlow {
			out = append(out, h.Policy+" "+dur(h.Timeout))
		}
	}
	return out
}
