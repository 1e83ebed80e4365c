package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/retrysim/retrysim/simulator/supervise"
)

// startExec starts --exec's handler and waits for --url's port.
func startExec(ctx context.Context, command, targetURL string, out io.Writer, opts ...supervise.Option) (*supervise.Handler, error) {
	u, err := url.Parse(targetURL)
	if err != nil {
		return nil, fmt.Errorf("--url %q: %w", targetURL, err)
	}
	h, err := supervise.Start(ctx, command, u, out, opts...)
	return h, execError(err)
}

// execError says a failure of --exec's handler in the flags' words; nil
// stays nil.
func execError(err error) error {
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
