package scenarios

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// restart: the handler process is killed (SIGKILL: no graceful shutdown) and
// started again at moments of virtual time, measured from the start of the
// run: the test that exposes dedup kept in process memory. `retrysim run
// --exec CMD` starts the handler itself to be able to do this. Give the
// moments (at), or an interval within the envelope's from/until window
// (from + interval, from + 2·interval, … before until), or both.
//
//	type: restart
//	at: [20m, 2h]
//
//	type: restart
//	interval: 15m
//	until: 6h
type restart struct {
	At       []policies.Duration `yaml:"at"`
	Interval policies.Duration   `yaml:"interval"`
}

func init() { Register("restart", func() Kind { return &restart{} }) }

func (*restart) Apply(*Action, *Context) {}

func (*restart) envelope() []string { return []string{"from", "until"} }

func (r *restart) times(from, until time.Duration) []time.Duration {
	out := make([]time.Duration, 0, len(r.At))
	for _, t := range r.At {
		out = append(out, t.D())
	}
	if iv := r.Interval.D(); iv > 0 && until > from {
		for t := from + iv; t < until && len(out) < maxListLen; t += iv {
			out = append(out, t)
		}
	}
	return out
}

func (r *restart) Validate() []error {
	var errs []error
	if len(r.At) == 0 && r.Interval == 0 {
		errs = append(errs, fmt.Errorf("give at (a list of moments such as [20m, 2h]) or interval with until"))
	}
	if len(r.At) > maxListLen {
		errs = append(errs, fmt.Errorf("at: %d moments is over the cap of %d", len(r.At), maxListLen))
	}
	for _, t := range r.At {
		if t < 0 {
			errs = append(errs, fmt.Errorf("at: %s is negative", t))
		}
	}
	if r.Interval < 0 {
		errs = append(errs, fmt.Errorf("interval: %s is negative", r.Interval))
	}
	if r.Interval > 0 && r.Interval.D() < time.Second {
		errs = append(errs, fmt.Errorf("interval: %s is under a second", r.Interval))
	}
	return errs
}

func (r *restart) checkEnvelope(from, until time.Duration) []error {
	if r.Interval > 0 && until == 0 {
		return []error{fmt.Errorf("interval: %s needs until, the end of the restarts (and from, their start, if not 0)", r.Interval)}
	}
	return nil
}
