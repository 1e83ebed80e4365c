package simulator

import "sync"

// Collect returns a Sink that appends every record to *records, for a Go
// caller that wants the whole stream after Run returns:
//
//	var recs []simulator.Record
//	_, err := simulator.Run(ctx, simulator.Config{…, Sink: simulator.Collect(&recs)})
//	runs, err := report.Summarize(recs)
//
// The engine calls a Sink from one goroutine; Collect also guards the slice
// so that the same sink may be shared by runs on several goroutines.
func Collect(records *[]Record) Sink {
	var mu sync.Mutex
	return func(r *Record) error {
		mu.Lock()
		*records = append(*records, *r)
		mu.Unlock()
		return nil
	}
}
