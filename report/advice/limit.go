package advice

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Limit says in flag's words what the engine's limit refused:
// "--events: 0 is out of range (1..10000000)". The limits themselves are
// the engine's (simulator.Check*); given is the value as the user spelled
// it, "" for the engine's spelling. An error that is not a
// *simulator.LimitError is only prefixed with the flag; nil stays nil.
func Limit(flag, given string, err error) error {
	if err == nil {
		return nil
	}
	var le *simulator.LimitError
	if !errors.As(err, &le) {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	v := le.Value
	if given != "" {
		v = given
	}
	switch {
	case le.Reserved:
		return fmt.Errorf("--%s: %s is reserved; use any other number", flag, v)
	case le.AboveMin:
		return fmt.Errorf("--%s: %s is out of range (above %s, at most %s)", flag, v, le.Min, le.Max)
	}
	return fmt.Errorf("--%s: %s is out of range (%s..%s)", flag, v, le.Min, le.Max)
}

// Shard says why --shard's value is not a shard (a
// *simulator.ShardSyntaxError, as simulator.ParseShard returns it), with
// the spellings that are; any other error is returned as it is.
func Shard(err error) error {
	var se *simulator.ShardSyntaxError
	if !errors.As(err, &se) {
		return err
	}
	switch {
	case se.NoSlash:
		return fmt.Errorf("--shard %q: give I/N (shard I, from 0, of N), or /N in a Kubernetes Indexed Job", se.Value)
	case se.NoEnv:
		return fmt.Errorf("--shard %s takes the shard's index from $%s, which is not set: give I/N, or run it as a pod of an Indexed Job", se.Value, simulator.JobIndexEnv)
	}
	from := ""
	if se.FromEnv {
		from = " ($" + simulator.JobIndexEnv + ")"
	}
	return fmt.Errorf("--shard %s/%s%s: not a shard: give I/N with N at least 1 and I from 0 to N-1", se.Index, se.Of, from)
}

// Span reads the value s of a duration flag the engine bounds (--over,
// --settle) with check: a value that is no duration, or one check refuses
// (see Limit), is an error naming the flag.
func Span(flag, s string, check func(time.Duration) error) (time.Duration, error) {
	d, err := policies.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", flag, err)
	}
	if err := Limit(flag, s, check(d)); err != nil {
		return 0, err
	}
	return d, nil
}
