package main

import (
	"context"
	"fmt"
	"io"
	"net/url"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator/supervise"
)

// startExec starts --exec's handler and waits for --url's port.
func startExec(ctx context.Context, command, targetURL string, out io.Writer, opts ...supervise.Option) (*supervise.Handler, error) {
	u, err := url.Parse(targetURL)
	if err != nil {
		return nil, fmt.Errorf("--url %q: %w", targetURL, err)
	}
	h, err := supervise.Start(ctx, command, u, out, opts...)
	return h, advice.Exec(err)
}
