package report

import (
	"math/bits"
	"slices"
	"sort"
	"time"
)

// exactSamples is how many values a sample keeps as they are before it
// folds them into buckets.
const exactSamples = 1 << 16

// subBits sets the buckets' width: a bucket is at most 1/2^subBits of its
// values wide (under 0.1%), and values below 2^subBits ns have one each.
const subBits = 10

// sample is a multiset of durations in bounded memory, for a run of any
// length: the values themselves while there are at most exactSamples of
// them, then counts in log-linear buckets, so a percentile read from them
// is within 0.1% of the true one. The maximum, and the counts above the
// thresholds named up front (the TTL choices a report will be asked
// about), stay exact either way.
type sample struct {
	exact   []time.Duration // the values, until folded
	sorted  bool
	buckets []int // counts by bucket, once folded
	folded  bool
	n       int
	max     time.Duration
	marks   []time.Duration // thresholds counted exactly, sorted
	above   []int           // how many values are above each mark
}

// newSample returns a sample that counts exactly the values above each of
// marks.
func newSample(marks []time.Duration) sample {
	m := slices.Clone(marks)
	slices.Sort(m)
	m = slices.Compact(m)
	return sample{marks: m, above: make([]int, len(m))}
}

func (s *sample) add(v time.Duration) {
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	for i, m := range s.marks {
		if v <= m {
			break
		}
		s.above[i]++
	}
	if s.folded {
		s.count(v)
		return
	}
	s.exact = append(s.exact, v)
	s.sorted = false
	if len(s.exact) > exactSamples {
		for _, v := range s.exact {
			s.count(v)
		}
		s.exact, s.folded = nil, true
	}
}

func (s *sample) count(v time.Duration) {
	i := bucket(v)
	if i >= len(s.buckets) {
		s.buckets = slices.Grow(s.buckets, i+1-len(s.buckets))[:i+1]
	}
	s.buckets[i]++
}

// bucket is the bucket of v: v itself below 2^subBits, then 2^subBits
// buckets per power of two.
func bucket(v time.Duration) int {
	u := uint64(max(v, 0))
	if u < 1<<subBits {
		return int(u)
	}
	shift := bits.Len64(u) - subBits - 1
	return (shift+1)<<subBits + int(u>>shift) - 1<<subBits
}

// bounds returns the smallest and largest value bucket i holds.
func bounds(i int) (lo, hi time.Duration) {
	if i < 1<<subBits {
		return time.Duration(i), time.Duration(i)
	}
	shift := i>>subBits - 1
	m := uint64(i&(1<<subBits-1) + 1<<subBits)
	lo = time.Duration(m << shift)
	return lo, lo + time.Duration(uint64(1)<<shift) - 1
}

func (s *sample) len() int { return s.n }

// countAbove is the number of values greater than t: exact for a mark or
// while the values are kept, else counted from the buckets wholly above t.
func (s *sample) countAbove(t time.Duration) int {
	if i, ok := slices.BinarySearch(s.marks, t); ok {
		return s.above[i]
	}
	if !s.folded {
		s.sort()
		i := sort.Search(len(s.exact), func(i int) bool { return s.exact[i] > t })
		return len(s.exact) - i
	}
	n := 0
	for i := len(s.buckets) - 1; i >= 0; i-- {
		if lo, _ := bounds(i); lo <= t {
			break
		}
		n += s.buckets[i]
	}
	return n
}

// percentile returns the p-th percentile (0..100), nearest rank; 0 when
// the sample is empty.
func (s *sample) percentile(p float64) time.Duration {
	if s.n == 0 {
		return 0
	}
	rank := min(max(int(p/100*float64(s.n)+0.999999)-1, 0), s.n-1)
	if rank == s.n-1 {
		return s.max
	}
	if !s.folded {
		s.sort()
		return s.exact[rank]
	}
	seen := 0
	for i, c := range s.buckets {
		if seen += c; seen > rank {
			lo, hi := bounds(i)
			return min(lo+(hi-lo)/2, s.max)
		}
	}
	return s.max
}

// frozen returns a copy of s that later adds to s do not change, its
// values sorted, so that reading the copy changes nothing either.
func (s *sample) frozen() sample {
	s.sort()
	c := *s
	c.exact, c.buckets, c.above = slices.Clone(s.exact), slices.Clone(s.buckets), slices.Clone(s.above)
	return c
}

func (s *sample) sort() {
	if !s.sorted {
		slices.Sort(s.exact)
		s.sorted = true
	}
}
