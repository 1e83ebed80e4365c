package proxy

import (
	"context"
	"net"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// shutdownGrace is how long the intake's server lets the requests in
// flight finish once the run is over.
const shutdownGrace = 5 * time.Second

// Run serves the intake on ln and runs the engine, with cfg (whose
// Incoming it sets), on the deliveries taken in, until the intake is
// closed (Close, WithMax's count, end closed, or ctx ended) and the
// events taken in have finished their schedules. The server then stops,
// letting the requests in flight finish for up to five seconds. It
// returns the engine's error.
func (in *Intake) Run(ctx context.Context, ln net.Listener, cfg simulator.Config, end <-chan struct{}) error {
	srv := in.Server()
	go srv.Serve(ln)
	go func() {
		select {
		case <-ctx.Done():
		case <-end:
		}
		in.Close()
	}()
	cfg.Incoming = in.Events()
	_, err := simulator.Run(ctx, cfg)
	shutdown, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	srv.Shutdown(shutdown)
	return err
}
