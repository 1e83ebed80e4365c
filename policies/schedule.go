package policies

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// ScheduleSpec is how a catalogue entry writes a retry schedule. Exactly one
// of its three forms is set; Expand turns any of them into delays.
type ScheduleSpec struct {
	// Delays are the waits after each failed attempt: Delays[0] is the wait
	// between attempt 1 and attempt 2.
	Delays []Duration `yaml:"delays,omitempty"`
	// Offsets are attempt times measured from the first attempt; the first
	// offset must be 0.
	Offsets []Duration `yaml:"offsets,omitempty"`
	// Exponential generates delays initial·factor^k, capped at max.
	Exponential *Exponential `yaml:"exponential,omitempty"`
}

// Exponential describes an exponential backoff. Give either Initial, or
// Window: the initial delay is then fitted so that all attempts span Window.
type Exponential struct {
	Attempts int      `yaml:"attempts"`
	Initial  Duration `yaml:"initial,omitempty"`
	Window   Duration `yaml:"window,omitempty"`
	Factor   float64  `yaml:"factor"`
	Max      Duration `yaml:"max,omitempty"`
}

// MaxAttemptsCap bounds the attempts one schedule may make.
const MaxAttemptsCap = 1000

// MaxWindow bounds the span of one schedule, from the first attempt to the
// last: far above any provider's, low enough that no sum of delays
// overflows.
const MaxWindow = 366 * Day

// Expand returns the delays the spec describes, rounded to whole seconds
// (sub-second delays are kept as they are).
func (s ScheduleSpec) Expand() ([]time.Duration, error) {
	forms := 0
	if s.Delays != nil {
		forms++
	}
	if s.Offsets != nil {
		forms++
	}
	if s.Exponential != nil {
		forms++
	}
	if forms != 1 {
		return nil, errors.New("schedule: give exactly one of delays, offsets or exponential")
	}
	switch {
	case s.Delays != nil:
		out := make([]time.Duration, len(s.Delays))
		for i, d := range s.Delays {
			out[i] = d.D()
		}
		return checkDelays(out)
	case s.Offsets != nil:
		if len(s.Offsets) == 0 || s.Offsets[0] != 0 {
			return nil, errors.New("schedule: offsets must start at 0 (the first attempt)")
		}
		out := make([]time.Duration, 0, len(s.Offsets)-1)
		for i := 1; i < len(s.Offsets); i++ {
			d := s.Offsets[i].D() - s.Offsets[i-1].D()
			if d < 0 {
				return nil, fmt.Errorf("schedule: offset %d (%s) comes before offset %d (%s)", i+1, s.Offsets[i], i, s.Offsets[i-1])
			}
			out = append(out, d)
		}
		return checkDelays(out)
	default:
		return s.Exponential.expand()
	}
}

func (e *Exponential) expand() ([]time.Duration, error) {
	switch {
	case e.Attempts < 1:
		return nil, fmt.Errorf("schedule: exponential attempts must be at least 1, got %d", e.Attempts)
	case e.Attempts > MaxAttemptsCap:
		return nil, fmt.Errorf("schedule: exponential attempts %d is over the cap of %d", e.Attempts, MaxAttemptsCap)
	case !(e.Factor >= 1) || math.IsInf(e.Factor, 1): // NaN fails too
		return nil, fmt.Errorf("schedule: exponential factor must be a number from 1 up, got %g", e.Factor)
	case (e.Initial == 0) == (e.Window == 0):
		return nil, errors.New("schedule: exponential needs exactly one of initial or window")
	}
	n := e.Attempts - 1
	initial := e.Initial.D()
	if e.Window != 0 && n > 0 {
		// initial · (f^n − 1)/(f − 1) = window, or initial · n for f = 1.
		sum := float64(n)
		if e.Factor > 1 {
			sum = (math.Pow(e.Factor, float64(n)) - 1) / (e.Factor - 1)
		}
		initial = time.Duration(float64(e.Window.D()) / sum)
	}
	// Offsets, not delays, are rounded to whole seconds, so that rounding
	// does not add up over the schedule.
	out := make([]time.Duration, n)
	cur, offset, prev := float64(initial), 0.0, time.Duration(0)
	for i := range out {
		d := cur
		if e.Max != 0 && d > float64(e.Max.D()) {
			d = float64(e.Max.D())
		}
		if !(d >= 0) || offset+d > float64(MaxWindow) {
			return nil, fmt.Errorf("schedule: exponential delays grow past %s by attempt %d (set max, or fewer attempts)", FormatDuration(MaxWindow), i+2)
		}
		offset += d
		at := time.Duration(offset)
		if d >= float64(time.Second) {
			at = at.Round(time.Second)
		}
		out[i] = at - prev
		prev = at
		cur *= e.Factor
	}
	return checkDelays(out)
}

func checkDelays(d []time.Duration) ([]time.Duration, error) {
	if len(d)+1 > MaxAttemptsCap {
		return nil, fmt.Errorf("schedule: %d attempts is over the cap of %d", len(d)+1, MaxAttemptsCap)
	}
	var total time.Duration
	for i, v := range d {
		if v < 0 {
			return nil, fmt.Errorf("schedule: delay %d is negative", i+1)
		}
		if v > MaxWindow-total {
			return nil, fmt.Errorf("schedule: the attempts span more than %s by attempt %d", FormatDuration(MaxWindow), i+2)
		}
		total += v
	}
	return d, nil
}
