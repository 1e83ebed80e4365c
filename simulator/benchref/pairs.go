package benchref

import (
	"slices"
	"testing"
	"time"
)

// Pairs collects the ratios of two sides measured by turns, one pair at a
// time, and reports their median and range: on a shared machine, whose
// speed drifts from one second to the next, the two sides of a pair see
// the same machine, and the spread of the pairs says how much it drifted.
type Pairs struct {
	ratios []float64
}

// Add records one pair's ratio, ref over subject: for times, the
// reference's over the subject's (1 when the subject costs what the
// reference does, less when it costs more); for rates, the subject's over
// the reference's. A pair with a zero side is not a measurement and is
// left out.
func (p *Pairs) Add(ref, subject float64) {
	if ref <= 0 || subject <= 0 {
		return
	}
	p.ratios = append(p.ratios, ref/subject)
}

// AddTimes records one pair of times: ref's over subject's.
func (p *Pairs) AddTimes(ref, subject time.Duration) { p.Add(float64(ref), float64(subject)) }

// Median is the median of the pairs' ratios, 0 with none.
func (p *Pairs) Median() float64 {
	if len(p.ratios) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(p.ratios))
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Report reports the median ratio under name, and its range as
// name-min and name-max, on b.
func (p *Pairs) Report(b *testing.B, name string) {
	if len(p.ratios) == 0 {
		return
	}
	b.ReportMetric(p.Median(), name)
	b.ReportMetric(slices.Min(p.ratios), name+"-min")
	b.ReportMetric(slices.Max(p.ratios), name+"-max")
}
