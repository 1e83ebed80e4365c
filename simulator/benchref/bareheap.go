package benchref

import "time"

// BareHeap pushes and pops the attempts of events that each fail every
// attempt of a schedule with the given delays, on a hand-written binary
// heap of (time, sequence) and nothing else: events start spread evenly
// over over from start, all in flight at once. It returns the number of
// attempts popped, events × (len(delays)+1).
func BareHeap(delays []time.Duration, events int, over time.Duration, start time.Time) int {
	h := make(bareHeap, 0, events)
	t0 := start.UnixNano()
	for i := range events {
		h.push(bareItem{at: t0 + int64(i)*int64(over)/int64(events), seq: uint64(i)})
	}
	seq := uint64(events)
	popped := 0
	for len(h) > 0 {
		it := h.pop()
		popped++
		n := int(it.seq>>40) + 1
		if n < len(delays)+1 {
			seq++
			h.push(bareItem{at: it.at + int64(delays[n-1]), seq: uint64(n)<<40 | seq&(1<<40-1)})
		}
	}
	return popped
}

type bareItem struct {
	at  int64
	seq uint64
}

type bareHeap []bareItem

func (h bareItem) less(o bareItem) bool { return h.at < o.at || (h.at == o.at && h.seq < o.seq) }

func (h *bareHeap) push(it bareItem) {
	*h = append(*h, it)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *bareHeap) pop() bareItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}
