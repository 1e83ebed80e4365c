package simulator

import (
	"sort"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// disabler applies a policy's endpoint-disable rule across events, in
// virtual-time order: consecutive failures (within a window), a failure rate
// over a sliding window with a minimum volume, or failing without a break
// for a duration. It also knows whether a single answer can disable the
// endpoint (a stop rule such as a Standard Webhooks 410).
type disabler struct {
	rule   *policies.DisableRule
	atOnce bool

	// Consecutive failures: the current streak's failure times, oldest
	// first (at most rule.ConsecutiveFailures of them).
	times []time.Time
	// Failing for a duration: the streak's length and first failure, and
	// with a clock-start condition, the streak's failures within its
	// window (oldest first) and when the clock started (zero: not yet).
	streak      int
	streakStart time.Time
	recent      []time.Time
	clock       time.Time
	// Backoff: the endpoint is paused (disabled for a while) until then;
	// pauses lists every pause, for the records.
	pausedUntil time.Time
	pauses      [][2]time.Time
	// Failure rate: the attempts still in the window, oldest first, from
	// marks[head]; fails counts the failed ones.
	marks []mark
	head  int
	fails int
	oks   int // successes recorded since the start, for mark.oksBefore
}

type mark struct {
	at        time.Time
	failed    bool
	oksBefore int // successes recorded before this mark
}

func newDisabler(p *policies.Policy) disabler {
	return disabler{rule: p.Disable, atOnce: p.CanDisableAtOnce()}
}

// full reports whether k attempts not yet committed, due from first to last,
// might disable the endpoint by the last of them, assuming the worst (every
// one of them fails): the rule's safe lookahead. The scheduler sends an
// attempt only when the attempts before it are not full, so no attempt is
// ever sent after the moment the endpoint is disabled. (A consecutive-
// failures rule of K with a streak of s is safe for K-s-1 more attempts.)
func (d *disabler) full(k int, first, last time.Time) bool {
	if k == 0 {
		return false
	}
	if d.atOnce {
		return true
	}
	r := d.rule
	switch {
	case r == nil:
		return false
	case r.FailureRate > 0:
		// At any of the k attempts the window holds at most the marks it
		// holds now plus k, of which at most fails+k failed, and at least
		// the successes still inside the window at last.
		if d.count()+k < r.MinAttempts {
			return false
		}
		f := d.fails + k
		s := d.successesAfter(last.Add(-r.Within.D()))
		return float64(f) > r.FailureRate*float64(f+s)
	case r.FailingFor > 0:
		start := d.streakStart
		if d.streak == 0 {
			start = first
		}
		return last.Sub(start) >= r.FailingFor.D()
	default:
		if b := r.Backoff; b != nil {
			// Any of them might pause the endpoint for those after it.
			return len(d.times)+k >= b.After
		}
		return len(d.times)+k >= r.ConsecutiveFailures
	}
}

// paused reports whether the endpoint is disabled for a while at at (a
// backoff rule), by the attempts recorded so far.
func (d *disabler) paused(at time.Time) bool { return at.Before(d.pausedUntil) }

// pausedAt is paused at the virtual time at of e, made only when the
// endpoint was ever paused (most runs: never).
func (d *disabler) pausedAt(e *engine, at int64) bool {
	return !d.pausedUntil.IsZero() && d.paused(e.virtual(at))
}

// record notes an attempt's result and reports whether the endpoint is now
// disabled by the rule.
func (d *disabler) record(at time.Time, failed bool) bool {
	r := d.rule
	switch {
	case r == nil:
		return false
	case r.FailureRate > 0:
		return d.recordRate(at, failed)
	case r.FailingFor > 0:
		if !failed {
			d.streak = 0
			d.recent, d.clock = d.recent[:0], time.Time{}
			return false
		}
		if d.streak == 0 {
			d.streakStart = at
		}
		d.streak++
		start := d.streakStart
		if c := r.ClockStart; c != nil {
			if d.clock.IsZero() {
				d.startClock(at, c)
			}
			if d.clock.IsZero() {
				return false
			}
			start = d.clock
		}
		return at.Sub(start) >= r.FailingFor.D()
	}
	if !failed {
		d.times = d.times[:0]
		return false
	}
	if b := r.Backoff; b != nil && len(d.times)+1 >= b.After && len(d.times)+1 < r.ConsecutiveFailures {
		until := at.Add(b.Pause(len(d.times) + 1))
		d.pausedUntil = until
		d.pauses = append(d.pauses, [2]time.Time{at, until})
	}
	if len(d.times) == r.ConsecutiveFailures {
		d.times = append(d.times[:0], d.times[1:]...)
	}
	d.times = append(d.times, at)
	if len(d.times) < r.ConsecutiveFailures {
		return false
	}
	return r.Within == 0 || at.Sub(d.times[0]) <= r.Within.D()
}

func (d *disabler) recordRate(at time.Time, failed bool) bool {
	r := d.rule
	d.marks = append(d.marks, mark{at: at, failed: failed, oksBefore: d.oks})
	if failed {
		d.fails++
	} else {
		d.oks++
	}
	cut := at.Add(-r.Within.D())
	for d.head < len(d.marks) && !d.marks[d.head].at.After(cut) {
		if d.marks[d.head].failed {
			d.fails--
		}
		d.head++
	}
	if d.head > 1024 && d.head > len(d.marks)/2 {
		d.marks = append(d.marks[:0], d.marks[d.head:]...)
		d.head = 0
	}
	n := d.count()
	return n >= r.MinAttempts && float64(d.fails) > r.FailureRate*float64(n)
}

func (d *disabler) count() int { return len(d.marks) - d.head }

// successesAfter counts the successful attempts in the window later than t.
func (d *disabler) successesAfter(t time.Time) int {
	in := d.marks[d.head:]
	i := sort.Search(len(in), func(i int) bool { return in[i].at.After(t) })
	if i == len(in) {
		return 0
	}
	return d.oks - in[i].oksBefore
}

// watching reports whether any answer could disable the endpoint, so that
// the scheduler must ask full before sending.
func (d *disabler) watching() bool { return d.atOnce || d.rule != nil }

// startClock starts a failing_for clock at the failure at when an earlier
// failure of the streak came at least c.Apart and at most c.Within before
// it.
func (d *disabler) startClock(at time.Time, c *policies.ClockStart) {
	cut := at.Add(-c.Within.D())
	i := 0
	for i < len(d.recent) && d.recent[i].Before(cut) {
		i++
	}
	d.recent = append(d.recent[:0], d.recent[i:]...)
	if len(d.recent) > 0 && at.Sub(d.recent[0]) >= c.Apart.D() {
		d.clock = at
		d.recent = d.recent[:0]
		return
	}
	d.recent = append(d.recent, at)
}
