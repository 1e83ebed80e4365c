package report

import (
	"slices"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// DefaultTTLs returns the dedup-key TTL choices a report compares unless
// told otherwise: the values teams most often pick.
func DefaultTTLs() []time.Duration {
	return []time.Duration{5 * time.Minute, time.Hour, 24 * time.Hour, 72 * time.Hour, 7 * policies.Day, 30 * policies.Day}
}

// TTLChoices is the TTL choices a report compares: choices, or
// DefaultTTLs when there are none. Every reader of a report's choices asks
// this.
func TTLChoices(choices []time.Duration) []time.Duration {
	if len(choices) == 0 {
		return DefaultTTLs()
	}
	return choices
}

// WithTTLChoice returns the TTL choices (see TTLChoices) with ttl among
// them, in order of length: what a report compares once the handler's own
// TTL is known. choices is not changed.
func WithTTLChoice(choices []time.Duration, ttl time.Duration) []time.Duration {
	out := slices.Clone(TTLChoices(choices))
	if ttl <= 0 || slices.Contains(out, ttl) {
		return out
	}
	i := 0
	for i < len(out) && out[i] < ttl {
		i++
	}
	return slices.Insert(out, i, ttl)
}

// leaksPast says whether an arrival after its event's dedup key was stored
// gets past a key kept for ttl: it came strictly later than ttl after the
// key. The TTL comparison's counts (sample.countAbove) and the timeline's
// rings both follow it.
func leaksPast(afterKey, ttl time.Duration) bool { return afterKey > ttl }

// TTLBuffer is the margin added to the longest span a dedup key must cover
// before rounding up to a readable unit.
const TTLBuffer = 0.10

// TTLChoice is one candidate TTL and the duplicates it lets through:
// arrivals after their event's key had expired.
type TTLChoice struct {
	TTL time.Duration
	// LeakedArrivals counts the arrivals in this run that came after their
	// event's key had expired.
	LeakedArrivals int
	// LeakedEvents counts the events of this run with at least one such
	// arrival.
	LeakedEvents int
	// WorstArrivals is the worst case for one event, from the policy's
	// schedule: the handler did the work at the first attempt (the key is
	// stored then) and every answer was lost, so the provider delivered
	// again at every retry; these are the retries later than TTL. Every
	// event can meet it, so WorstArrivals > 0 means any event may leak.
	WorstArrivals int
	// ManualLeaks says a manual redelivery within the provider's window can
	// come after the key expired.
	ManualLeaks bool
}

// TTLAnalysis is the dedup-TTL section of a report.
type TTLAnalysis struct {
	// Window is the policy's worst case: first to last attempt when every
	// attempt fails.
	Window time.Duration
	// Observed is the longest span from a key being stored to a later
	// arrival of the same event, in this run.
	Observed time.Duration
	// Manual is the provider's manual-redelivery window.
	Manual time.Duration
	// Recommended covers the automatic retries (worst case and observed)
	// plus TTLBuffer, rounded up to a readable unit.
	Recommended time.Duration
	// WithManual also covers manual redelivery.
	WithManual time.Duration
	// Retries is the number of retries in the policy's schedule: the most
	// duplicate arrivals one event can bring by itself.
	Retries int
	Choices []TTLChoice
	// WrongAdvice holds each common TTL that is too short for this
	// policy's own retries, in the order reports name them.
	WrongAdvice []WrongAdvice
}

// Need is the span a dedup key must cover for the automatic retries: the
// policy's worst-case window or the longest wait observed, whichever is
// longer (manual redelivery aside). A TTL shorter than it is too short.
func (a TTLAnalysis) Need() time.Duration { return max(a.Window, a.Observed) }

// CommonTTL is a dedup TTL people are told to use.
type CommonTTL string

// The common TTLs the reports check.
const (
	// CommonTTLStandardWebhooks: keeping ids for 5 minutes, the Standard
	// Webhooks spec's own suggestion.
	CommonTTLStandardWebhooks CommonTTL = "standard_webhooks_5m"
	// CommonTTLDayCache: a 24-hour cache.
	CommonTTLDayCache CommonTTL = "cache_24h"
)

// commonAdvice is the dedup TTLs people are told to use.
var commonAdvice = []struct {
	name CommonTTL
	ttl  time.Duration
}{
	{CommonTTLStandardWebhooks, 5 * time.Minute},
	{CommonTTLDayCache, 24 * time.Hour},
}

// WrongAdvice is a common TTL too short for a policy: what it lets
// through, in the worst case and in the run.
type WrongAdvice struct {
	Advice CommonTTL
	Choice TTLChoice
}

// TTL analyses the run's dedup-key needs for the given choices (DefaultTTLs
// when none).
func (r *Summary) TTL(choices []time.Duration) TTLAnalysis {
	choices = TTLChoices(choices)
	a := TTLAnalysis{Window: r.Window, Observed: r.ObservedNeed, Manual: r.ManualRedelivery}
	need := a.Need()
	a.Recommended = RoundTTL(need)
	a.WithManual = RoundTTL(max(need, a.Manual))
	a.Retries = max(len(r.Schedule)-1, 0)
	for _, ttl := range choices {
		a.Choices = append(a.Choices, r.choice(ttl))
	}
	for _, c := range commonAdvice {
		if ch := r.choice(c.ttl); ch.WorstArrivals > 0 {
			a.WrongAdvice = append(a.WrongAdvice, WrongAdvice{Advice: c.name, Choice: ch})
		}
	}
	return a
}

// choice works out what one TTL lets through. Arrivals strictly after
// key+ttl leak.
func (r *Summary) choice(ttl time.Duration) TTLChoice {
	c := TTLChoice{TTL: ttl, ManualLeaks: leaksPast(r.ManualRedelivery, ttl)}
	c.LeakedArrivals = r.afterKey.countAbove(ttl)
	c.LeakedEvents = r.leakedEvents(ttl)
	for _, off := range r.Schedule[min(1, len(r.Schedule)):] {
		if leaksPast(off, ttl) {
			c.WorstArrivals++
		}
	}
	if len(r.Schedule) == 0 && leaksPast(r.Window, ttl) {
		c.WorstArrivals = 1 // the schedule is unknown; at least its last attempt
	}
	return c
}

// LeakedAt is the number of arrivals of this run that a TTL of ttl would
// have let through: the observed curve of the TTL comparison.
func (r *Summary) LeakedAt(ttl time.Duration) int { return r.afterKey.countAbove(ttl) }

// WorstLeakedAt is the worst case for one event at ttl (see
// TTLChoice.WorstArrivals).
func (r *Summary) WorstLeakedAt(ttl time.Duration) int { return r.choice(ttl).WorstArrivals }

// DuplicatesAfterKey is the number of arrivals in this run that came after
// their event's key was stored: what a TTL of zero would let through.
func (r *Summary) DuplicatesAfterKey() int { return r.afterKey.len() }

// leakedEvents counts the events with an arrival later than ttl after their
// key: ended events and those still open.
func (r *Summary) leakedEvents(ttl time.Duration) int {
	n := r.eventNeed.countAbove(ttl)
	for _, need := range r.openNeed {
		if leaksPast(need, ttl) {
			n++
		}
	}
	return n
}

// ttlLadder is the readable TTL values a recommendation is rounded up to.
var ttlLadder = []time.Duration{
	time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 3 * time.Hour, 4 * time.Hour, 6 * time.Hour, 8 * time.Hour, 12 * time.Hour,
	policies.Day, 2 * policies.Day, 3 * policies.Day, 4 * policies.Day, 5 * policies.Day, 7 * policies.Day,
	10 * policies.Day, 14 * policies.Day, 21 * policies.Day, 30 * policies.Day, 45 * policies.Day,
	60 * policies.Day, 90 * policies.Day,
}

// RoundTTL adds TTLBuffer to need (at least a minute) and rounds up to the
// next readable value: 1m, 2m, 5m, … 1h, 2h, … 1d, 2d, 3d, … 30d, then whole
// months of 30 days.
func RoundTTL(need time.Duration) time.Duration {
	if need <= 0 {
		return time.Minute
	}
	d := need + max(time.Duration(float64(need)*TTLBuffer), time.Minute)
	for _, v := range ttlLadder {
		if d <= v {
			return v
		}
	}
	month := 30 * policies.Day
	return (d + month - 1) / month * month
}
