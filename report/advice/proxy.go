package advice

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/proxy"
)

// Proxy is what proxy's own flags were given; the flags it shares with
// run are checked by run's rules.
type Proxy struct {
	// Providers is how many --provider names were given.
	Providers int
	// ForwardTo, Listen and Captures are the flags' values ("" when not
	// given).
	ForwardTo, Listen, Captures string
	// MaxEvents is --events, a cap on the deliveries taken in, 0 for none.
	MaxEvents int
	// Duration is --duration, 0 for none.
	Duration time.Duration
}

// Problems refuses, each in one line, what proxy cannot run with: not one
// provider, no --forward-to, a --listen address off this machine, an
// --events cap the engine could not take, a negative --duration, or a
// --captures that is not an existing directory.
func (p Proxy) Problems() []error {
	var errs []error
	if p.Providers != 1 {
		errs = append(errs, errors.New("--provider: name the one provider whose deliveries come in, e.g. --provider stripe"))
	}
	if p.ForwardTo == "" {
		errs = append(errs, errors.New("--forward-to: give your handler's URL, e.g. http://127.0.0.1:3000/webhooks/stripe"))
	}
	if err := proxy.CheckListen(p.Listen); err != nil {
		errs = append(errs, fmt.Errorf("--listen: %w", err))
	}
	// --events is a cap on the deliveries taken in, 0 for none: any
	// other value is a number of events the engine must take.
	if p.MaxEvents != 0 && simulator.CheckEvents(p.MaxEvents) != nil {
		errs = append(errs, fmt.Errorf("--events: %d is out of range (0 for no limit, up to %d)", p.MaxEvents, simulator.MaxEvents))
	}
	if p.Duration < 0 {
		errs = append(errs, fmt.Errorf("--duration: %s is negative", p.Duration))
	}
	if p.Captures != "" {
		st, err := os.Stat(p.Captures)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			errs = append(errs, fmt.Errorf("--captures: directory %s does not exist: create it first", p.Captures))
		case err != nil:
			errs = append(errs, fmt.Errorf("--captures: %w", err))
		case !st.IsDir():
			errs = append(errs, fmt.Errorf("--captures: %s is not a directory", p.Captures))
		}
	}
	return errs
}

// ProxySecret is proxy's error when no secret is given for provider: it
// checks each incoming delivery with the handler's own secret, and has no
// other to sign with.
func ProxySecret(provider string) error {
	return fmt.Errorf("--secret: give %s=<your handler's secret>: retrysim checks each incoming delivery with it and signs every attempt with it (stripe listen prints its whsec_ secret)", provider)
}
