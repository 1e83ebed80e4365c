package report

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// A sample gives exact answers while small, stays exact at its marks and
// for the maximum however large it grows, and otherwise stays within 0.1%
// while its memory stops growing.
func TestSampleBoundedAndAccurate(t *testing.T) {
	marks := []time.Duration{time.Hour, 5 * time.Minute}
	for _, n := range []int{0, 1, 7, exactSamples, exactSamples + 1, 5 * exactSamples} {
		t.Run(fmt.Sprintf("%d values", n), func(t *testing.T) {
			s := newSample(marks)
			r := policies.NewRand(uint64(n) + 1)
			var all []time.Duration
			for range n {
				// Around the marks, on whole minutes and off them, as
				// schedules put arrivals; and small latencies.
				v := time.Duration(r.IntN(7200)) * time.Second
				switch r.IntN(4) {
				case 0:
					v = time.Duration(r.IntN(120)) * time.Minute
				case 1:
					v = time.Duration(r.IntN(3_000_000)) * time.Microsecond
				}
				s.add(v)
				all = append(all, v)
			}
			slices.Sort(all)
			if s.len() != n {
				t.Fatalf("len %d, want %d", s.len(), n)
			}
			above := func(ttl time.Duration) int {
				c := 0
				for _, v := range all {
					if v > ttl {
						c++
					}
				}
				return c
			}
			for _, m := range marks {
				if got, want := s.countAbove(m), above(m); got != want {
					t.Errorf("above the mark %s: %d, want %d", m, got, want)
				}
			}
			// Elsewhere: exact while kept, else at most the values within
			// 0.1% of the threshold are missed.
			for _, ttl := range []time.Duration{90 * time.Second, 17 * time.Minute, 90 * time.Minute} {
				got, want := s.countAbove(ttl), above(ttl)
				slack := 0
				if n > exactSamples {
					slack = above(ttl) - above(ttl+ttl/1000)
				}
				if got > want || got < want-slack {
					t.Errorf("above %s: %d, want %d (slack %d)", ttl, got, want, slack)
				}
			}
			for _, p := range []float64{0, 50, 95, 99, 100} {
				got := s.percentile(p)
				if n == 0 {
					if got != 0 {
						t.Errorf("p%v of nothing: %s", p, got)
					}
					continue
				}
				want := all[min(max(int(p/100*float64(n)+0.999999)-1, 0), n-1)]
				if n <= exactSamples || p == 100 {
					if got != want {
						t.Errorf("p%v: %s, want exactly %s", p, got, want)
					}
				} else if diff := (got - want).Abs(); diff > want/1000+1 {
					t.Errorf("p%v: %s, want %s within 0.1%%", p, got, want)
				}
			}
			if n > exactSamples && (s.exact != nil || len(s.buckets) > 64<<subBits) {
				t.Errorf("%d values kept, %d buckets: memory grows with the values", len(s.exact), len(s.buckets))
			}
		})
	}
}

// Buckets tile the durations: each value falls in the bucket whose bounds
// hold it, and no bucket is wider than 0.1% of its values.
func TestSampleBuckets(t *testing.T) {
	for _, v := range []time.Duration{0, 1, 1023, 1024, 1025, 2047, 2048, 4095, 4096, time.Millisecond, time.Hour, 30 * policies.Day, 1<<62 + 12345} {
		i := bucket(v)
		lo, hi := bounds(i)
		if v < lo || v > hi {
			t.Errorf("%d is in bucket %d, which holds %d..%d", v, i, lo, hi)
		}
		if hi-lo > lo/1000 {
			t.Errorf("bucket %d (%d..%d) is wider than 0.1%%", i, lo, hi)
		}
		if i > 0 {
			if _, prevHi := bounds(i - 1); prevHi != lo-1 {
				t.Errorf("bucket %d starts at %d, the one before ends at %d", i, lo, prevHi)
			}
		}
	}
}
