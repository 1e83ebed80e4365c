package advice

import (
	"errors"
	"fmt"

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
