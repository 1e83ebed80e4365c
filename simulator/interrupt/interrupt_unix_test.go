//go:build unix

package interrupt

import (
	"bytes"
	"context"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is stderr written by the watcher's goroutine.
// Each write is told on wrote.
type lockedBuffer struct {
	mu    sync.Mutex
	b     bytes.Buffer
	wrote chan struct{}
}

func newLockedBuffer() *lockedBuffer { return &lockedBuffer{wrote: make(chan struct{}, 8)} }

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer func() { l.wrote <- struct{}{} }()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestFirstInterruptCancels: the first SIGINT, SIGTERM or SIGHUP (a
// closed terminal) cancels the context as an interrupt and says what the
// command does next, rather than killing the process.
func TestFirstInterruptCancels(t *testing.T) {
	for _, s := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(s.String(), func(t *testing.T) {
			stderr := newLockedBuffer()
			ctx, stop := Context(context.Background(), stderr, Options{Note: Note{First: "writing the partial report"}})
			if Interrupted(ctx) {
				t.Fatal("interrupted before any signal")
			}
			if err := syscall.Kill(syscall.Getpid(), s); err != nil {
				t.Fatal(err)
			}
			<-ctx.Done()
			<-stderr.wrote
			if !Interrupted(ctx) {
				t.Errorf("cause %v, want an interrupt", context.Cause(ctx))
			}
			stop()
			if got, want := stderr.String(), "\nretrysim: interrupted: writing the partial report (interrupt again to exit now)\n"; got != want {
				t.Errorf("stderr %q, want %q", got, want)
			}
		})
	}
}

// TestSoftEndFirst: with a soft end, the first SIGINT ends the command
// cleanly and leaves the context running; stopping is not an interrupt.
func TestSoftEndFirst(t *testing.T) {
	stderr := newLockedBuffer()
	ended := make(chan struct{})
	ctx, stop := Context(context.Background(), stderr, Options{Soft: &SoftEnd{Note: "ending", End: func() { close(ended) }}})
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	<-ended
	<-stderr.wrote
	if ctx.Err() != nil {
		t.Errorf("the soft end cancelled the context: %v", context.Cause(ctx))
	}
	stop()
	if Interrupted(ctx) {
		t.Error("stopping counts as an interrupt")
	}
	if got := stderr.String(); !strings.Contains(got, "retrysim: ending (interrupt again to cut them short)") {
		t.Errorf("stderr %q does not say the command ends", got)
	}
}

// TestIgnoredHangupStaysIgnored: a process started with SIGHUP ignored
// (under nohup) was asked to outlive its terminal; watching for interrupts
// does not undo that, so a closed terminal does not end the run.
func TestIgnoredHangupStaysIgnored(t *testing.T) {
	if !signal.Ignored(syscall.SIGHUP) {
		// Only Notify un-ignores a signal (Reset leaves it ignored), and
		// Stop then gives it back its default.
		t.Cleanup(func() {
			c := make(chan os.Signal, 1)
			signal.Notify(c, syscall.SIGHUP)
			signal.Stop(c)
		})
	}
	signal.Ignore(syscall.SIGHUP)
	ctx, stop := Context(context.Background(), newLockedBuffer(), Options{Note: Note{First: "writing the partial report"}})
	defer stop()
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
		t.Errorf("an ignored SIGHUP interrupted the run: %v", context.Cause(ctx))
	case <-time.After(200 * time.Millisecond):
	}
}
