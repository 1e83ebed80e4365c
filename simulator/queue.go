package simulator

import "time"

// due is one attempt waiting for its virtual time.
type due struct {
	at    time.Time
	event int // index in the workload
	n     int // attempt number, from 1
}

// before orders attempts by (time, event, attempt): a total order that does
// not depend on when an attempt was scheduled, so runs are the same at any
// concurrency.
func (a *due) before(b *due) bool {
	if !a.at.Equal(b.at) {
		return a.at.Before(b.at)
	}
	if a.event != b.event {
		return a.event < b.event
	}
	return a.n < b.n
}

// queue is a binary min-heap of due attempts. It is hand-written rather than
// container/heap to avoid boxing every push and pop in an interface.
type queue struct{ items []due }

func (q *queue) Len() int { return len(q.items) }

func (q *queue) peek() *due { return &q.items[0] }

func (q *queue) push(d due) {
	q.items = append(q.items, d)
	i := len(q.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !q.items[i].before(&q.items[p]) {
			break
		}
		q.items[i], q.items[p] = q.items[p], q.items[i]
		i = p
	}
}

func (q *queue) pop() due {
	top := q.items[0]
	last := len(q.items) - 1
	q.items[0] = q.items[last]
	q.items = q.items[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && q.items[r].before(&q.items[l]) {
			m = r
		}
		if !q.items[m].before(&q.items[i]) {
			break
		}
		q.items[i], q.items[m] = q.items[m], q.items[i]
		i = m
	}
	return top
}
