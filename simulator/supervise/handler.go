// Package supervise runs the user's handler for retrysim (run --exec): it
// starts a shell command in its own process group, waits until the
// handler's port accepts connections, kills and starts it again when a
// scenario restarts it, and stops it after the run. A process lives in
// real time: this package waits on the wall clock, as the engine never
// does.
package supervise

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"os/exec"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// Time limits for a handler started with --exec.
const (
	// execReadyTimeout bounds the wait for the handler to accept
	// connections after it is started (a `go run` may compile first).
	execReadyTimeout = 2 * time.Minute
	// execStopGrace is how long the handler has to exit after SIGTERM at
	// the end of a run before it is killed.
	execStopGrace = 5 * time.Second
	// execPoll is how often the handler's port is tried.
	execPoll = 20 * time.Millisecond
)

// Handler is the user's handler, started by retrysim (run --exec) as
// a shell command in its own process group, so that killing it also kills
// whatever it started (go run, npm start). Its output goes to out.
type Handler struct {
	command string
	addr    string // host:port to wait for
	// allowRemote lets the probe connect to a host that is not loopback.
	allowRemote bool
	// resolver resolves the handler's host name for the readiness probe;
	// nil is the system's.
	resolver *net.Resolver
	out      io.Writer
	cmd      *exec.Cmd
	exited   chan struct{}
	waitErr  error // how the process ended, once exited is closed
}

// Option sets how a handler is reached.
type Option func(*Handler)

// AllowRemote lets the readiness probe connect to a host that is not this
// machine.
func AllowRemote() Option { return func(h *Handler) { h.allowRemote = true } }

// WithResolver resolves the handler's host name with r instead of the
// system's resolver.
func WithResolver(r *net.Resolver) Option { return func(h *Handler) { h.resolver = r } }

// BusyPortError says the handler's address accepts connections when
// nothing retrysim started listens there: before the handler started, or
// after it was killed. Any other error of Start or Restart begins with the
// command, quoted.
type BusyPortError struct {
	Addr string
	// Command is the command about to start; "" after the handler was
	// killed.
	Command string
}

func (e *BusyPortError) Error() string {
	if e.Command == "" {
		return e.Addr + " still accepts connections after the handler was killed"
	}
	return fmt.Sprintf("%s already accepts connections before %q started", e.Addr, e.Command)
}

// Start starts command, its output going to out, and waits until the host
// and port of u accept connections. Something already listening there is
// a *BusyPortError: retrysim could not tell it from the handler it
// started.
func Start(ctx context.Context, command string, u *url.URL, out io.Writer, opts ...Option) (*Handler, error) {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	h := newHandler(command, net.JoinHostPort(u.Hostname(), port), out, opts...)
	if h.accepting() {
		return nil, &BusyPortError{Addr: h.addr, Command: command}
	}
	if err := h.start(ctx); err != nil {
		return nil, err
	}
	return h, nil
}

func newHandler(command, addr string, out io.Writer, opts ...Option) *Handler {
	h := &Handler{command: command, addr: addr, out: out}
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *Handler) start(ctx context.Context) error {
	cmd := shellCommand(h.command)
	cmd.Stdout, cmd.Stderr = h.out, h.out
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%q: %w", h.command, err)
	}
	h.cmd, h.exited = cmd, make(chan struct{})
	go func() {
		h.waitErr = cmd.Wait()
		close(h.exited)
	}()
	return h.waitReady(ctx)
}

// accepting reports whether the handler's address accepts a connection.
func (h *Handler) accepting() bool { return h.probe() == nil }

// probe connects to the handler's address once, through the guarded
// dialer every connection retrysim makes goes through: a host name that
// resolves to another machine between two tries is refused, not
// connected to.
func (h *Handler) probe() error {
	host, _, _ := net.SplitHostPort(h.addr)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	c, err := simulator.GuardedDial(200*time.Millisecond, h.allowRemote, h.resolver, host)(ctx, "tcp", h.addr)
	if err != nil {
		return err
	}
	return c.Close()
}

// waitReady waits for the handler's port to accept connections.
func (h *Handler) waitReady(ctx context.Context) error {
	deadline := time.NewTimer(execReadyTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(execPoll)
	defer tick.Stop()
	for !h.accepting() {
		select {
		case <-h.exited:
			how := "with status 0"
			if h.waitErr != nil {
				how = "(" + h.waitErr.Error() + ")"
			}
			return fmt.Errorf("%q exited %s before accepting connections on %s", h.command, how, h.addr)
		case <-ctx.Done():
			h.kill()
			return fmt.Errorf("%q: stopped while waiting for %s to accept connections: %w", h.command, h.addr, context.Cause(ctx))
		case <-deadline.C:
			h.kill()
			return fmt.Errorf("%q did not accept connections on %s within %s", h.command, h.addr, execReadyTimeout)
		case <-tick.C:
		}
	}
	return nil
}

// kill ends the handler at once (SIGKILL to its process group) and waits
// until it is gone.
func (h *Handler) kill() {
	select {
	case <-h.exited:
		return
	default:
	}
	signalGroup(h.cmd, true)
	<-h.exited
}

// Restart kills the handler with no chance to clean up, as a crash or an
// OOM kill would, and starts it again: the simulator's Restart hook.
func (h *Handler) Restart(ctx context.Context) error {
	h.kill()
	// The group's members die with it; wait until none still holds the
	// port, or the new process could not listen.
	deadline := time.Now().Add(execStopGrace)
	for h.accepting() {
		if time.Now().After(deadline) {
			return &BusyPortError{Addr: h.addr}
		}
		time.Sleep(execPoll)
	}
	return h.start(ctx)
}

// Stop ends the handler after a run: SIGTERM, then SIGKILL if it has not
// exited within execStopGrace.
func (h *Handler) Stop() {
	select {
	case <-h.exited:
		return
	default:
	}
	signalGroup(h.cmd, false)
	select {
	case <-h.exited:
		// Leave nothing behind that the shell started and SIGTERM spared.
		signalGroup(h.cmd, true)
	case <-time.After(execStopGrace):
		h.kill()
	}
}
