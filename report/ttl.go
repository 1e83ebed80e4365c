package report

import (
	"sort"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// DefaultTTLs are the dedup-key TTL choices a report compares unless told
// otherwise: the values teams most often pick.
var DefaultTTLs = []time.Duration{
	5 * time.Minute, time.Hour, 24 * time.Hour, 72 * time.Hour, 7 * policies.Day, 30 * policies.Day,
}

// TTLBuffer is the margin added to the longest span a dedup key must cover
// before rounding up to a readable unit.
const TTLBuffer = 0.10

// TTLChoice is one candidate TTL and the duplicates it would have let through
// in this run: arrivals after their event's key had expired.
type TTLChoice struct {
	TTL            time.Duration
	LeakedArrivals int
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
	Choices    []TTLChoice
}

// TTL analyses the run's dedup-key needs for the given choices (DefaultTTLs
// when none).
func (r *Run) TTL(choices []time.Duration) TTLAnalysis {
	if len(choices) == 0 {
		choices = DefaultTTLs
	}
	a := TTLAnalysis{Window: r.Window, Observed: r.ObservedNeed, Manual: r.ManualRedelivery}
	need := max(a.Window, a.Observed)
	a.Recommended = RoundTTL(need)
	a.WithManual = RoundTTL(max(need, a.Manual))
	sorted := r.afterKey
	if !sort.SliceIsSorted(sorted, func(i, j int) bool { return sorted[i] < sorted[j] }) {
		sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	}
	for _, ttl := range choices {
		// Arrivals strictly after key+ttl leak.
		i := sort.Search(len(sorted), func(i int) bool { return sorted[i] > ttl })
		a.Choices = append(a.Choices, TTLChoice{TTL: ttl, LeakedArrivals: len(sorted) - i})
	}
	return a
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
