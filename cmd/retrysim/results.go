package main

import (
	"io"

	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/report/results"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// resultsSink is the --results stream, kept by a second interrupt (its
// exit-now hook) until it is committed or aborted.
type resultsSink struct {
	*results.Stream
	unhook func()
}

// openResults opens the --results stream (see results.Open).
func openResults(path string, stdout io.Writer, sec *redact.Set) (*resultsSink, error) {
	s, err := results.Open(path, stdout, sec)
	if err != nil {
		return nil, err
	}
	return &resultsSink{Stream: s, unhook: interrupt.OnExitNow(s.ExitNow)}, nil
}

// commit commits the stream, which no interrupt needs to keep any more.
func (r *resultsSink) commit() error {
	r.unhook()
	return r.Commit()
}

// abort removes an uncommitted stream file.
func (r *resultsSink) abort() {
	r.unhook()
	r.Abort()
}
