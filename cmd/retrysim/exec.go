package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
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

// handlerProcess is the user's handler, started by retrysim (run --exec) as
// a shell command in its own process group, so that killing it also kills
// whatever it started (go run, npm start). Its output goes to out.
type handlerProcess struct {
	command string
	addr    string // host:port to wait for
	// allowRemote lets the probe connect to a host that is not loopback.
	allowRemote bool
	// resolver resolves the handler's host name for the readiness probe;
	// nil is the system's (tests give their own).
	resolver *net.Resolver
	out      io.Writer
	cmd      *exec.Cmd
	exited   chan struct{}
	waitErr  error // how the process ended, once exited is closed
}

// startHandler starts command and waits until the host and port of
// targetURL accept connections. Something already listening there is an
// error: retrysim could not tell it from the handler it started.
func startHandler(ctx context.Context, command, targetURL string, allowRemote bool, out io.Writer) (*handlerProcess, error) {
	u, err := url.Parse(targetURL)
	if err != nil {
		return nil, fmt.Errorf("--url %q: %w", targetURL, err)
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	h := &handlerProcess{command: command, addr: net.JoinHostPort(u.Hostname(), port), out: out, allowRemote: allowRemote}
	if h.accepting() {
		return nil, fmt.Errorf("--exec: %s already accepts connections before %q started; stop what listens there, or give the handler and --url another port", h.addr, command)
	}
	if err := h.start(ctx); err != nil {
		return nil, err
	}
	return h, nil
}

func (h *handlerProcess) start(ctx context.Context) error {
	cmd := shellCommand(h.command)
	cmd.Stdout, cmd.Stderr = h.out, h.out
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("--exec %q: %w", h.command, err)
	}
	h.cmd, h.exited = cmd, make(chan struct{})
	go func() {
		h.waitErr = cmd.Wait()
		close(h.exited)
	}()
	return h.waitReady(ctx)
}

// accepting reports whether the handler's address accepts a connection.
func (h *handlerProcess) accepting() bool { return h.probe() == nil }

// probe connects to the handler's address once, through the guarded
// dialer every connection retrysim makes goes through: a host name that
// resolves to another machine between two tries is refused, not
// connected to.
func (h *handlerProcess) probe() error {
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
func (h *handlerProcess) waitReady(ctx context.Context) error {
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
			return fmt.Errorf("--exec %q exited %s before accepting connections on %s", h.command, how, h.addr)
		case <-ctx.Done():
			h.kill()
			return fmt.Errorf("--exec %q: stopped while waiting for %s to accept connections: %w", h.command, h.addr, context.Cause(ctx))
		case <-deadline.C:
			h.kill()
			return fmt.Errorf("--exec %q did not accept connections on %s within %s", h.command, h.addr, execReadyTimeout)
		case <-tick.C:
		}
	}
	return nil
}

// kill ends the handler at once (SIGKILL to its process group) and waits
// until it is gone.
func (h *handlerProcess) kill() {
	select {
	case <-h.exited:
		return
	default:
	}
	signalGroup(h.cmd, true)
	<-h.exited
}

// restart kills the handler with no chance to clean up, as a crash or an
// OOM kill would, and starts it again: the simulator's Restart hook.
func (h *handlerProcess) restart(ctx context.Context) error {
	h.kill()
	// The group's members die with it; wait until none still holds the
	// port, or the new process could not listen.
	deadline := time.Now().Add(execStopGrace)
	for h.accepting() {
		if time.Now().After(deadline) {
			return fmt.Errorf("--exec: %s still accepts connections after the handler was killed", h.addr)
		}
		time.Sleep(execPoll)
	}
	return h.start(ctx)
}

// stop ends the handler after a run: SIGTERM, then SIGKILL if it has not
// exited within execStopGrace.
func (h *handlerProcess) stop() {
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

// restart stops the built-in demo server abruptly (every connection closed,
// as if its process were killed) and serves the same handler, whose state
// lives in SQLite, on the same address again, having lost what a process
// holds in memory.
func (d *demoServer) restart(context.Context) error {
	u, err := url.Parse(d.url)
	if err != nil {
		return err
	}
	if err := d.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	d.handler.Restart()
	ln, err := net.Listen("tcp", u.Host)
	if err != nil {
		return fmt.Errorf("demo handler: listening again on %s: %w", u.Host, err)
	}
	d.srv = demo.NewServer(d.handler)
	go d.srv.Serve(ln)
	return nil
}
