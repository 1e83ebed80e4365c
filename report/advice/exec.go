package advice

import (
	"errors"
	"fmt"

	"github.com/retrysim/retrysim/simulator/supervise"
)

// Exec says a failure of --exec's handler (as supervise.Start and
// Handler.Restart return it) in the flags' words; nil stays nil. A port
// another program holds says how to free it.
func Exec(err error) error {
	var busy *supervise.BusyPortError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &busy) && busy.Command != "":
		return fmt.Errorf("--exec: %w; stop what listens there, or give the handler and --url another port", err)
	case errors.As(err, &busy):
		return fmt.Errorf("--exec: %w", err)
	}
	return fmt.Errorf("--exec %w", err)
}
