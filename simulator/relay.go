package simulator

import "sync"

// Relay passes the records of runs going at once to one sink in run order:
// the records of the run whose turn it is go straight through; the others'
// wait in memory until the runs before them have finished.
type Relay struct {
	mu      sync.Mutex
	deliver Sink
	turn    int // the run whose records go straight through
	held    [][]Record
	over    []bool
	err     error // the first error of deliver: every run stops on it
}

// NewRelay returns a relay of n runs' records to deliver.
func NewRelay(n int, deliver Sink) *Relay {
	return &Relay{deliver: deliver, held: make([][]Record, n), over: make([]bool, n)}
}

// Sink is the sink of run i: a record of the run whose turn it is goes
// straight through; one that must wait is copied.
func (r *Relay) Sink(i int) Sink { return func(rec *Record) error { return r.add(i, rec) } }

func (r *Relay) add(i int, rec *Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return r.err
	}
	if i != r.turn {
		r.held[i] = append(r.held[i], *rec)
		return nil
	}
	r.err = r.deliver(rec)
	return r.err
}

// Finish notes that run i has sent its last record and passes on the
// records of the runs whose turn comes.
func (r *Relay) Finish(i int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.over[i] = true
	for r.turn < len(r.over) && r.over[r.turn] {
		r.turn++
		if r.turn == len(r.over) {
			break
		}
		for k := range r.held[r.turn] {
			if r.err == nil {
				r.err = r.deliver(&r.held[r.turn][k])
			}
		}
		r.held[r.turn] = nil
	}
	return r.err
}
