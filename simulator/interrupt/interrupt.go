// Package interrupt is how a retrysim command meets Ctrl-C: the first
// interrupt ends it softly (the run stops new attempts and still writes
// its report), a later one exits at once, after the exit-now hooks have
// kept or removed what a deferred call would have.
//
// It is process plumbing on the real clock, like simulator/supervise; the
// engine itself never waits on it.
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Note is what a command says it does on the first interrupt (First), and
// what exiting at a later one leaves out (Again, appended to "exiting
// now").
type Note struct{ First, Again string }

// SoftEnd is a gentler first stage before an interrupt: a command whose
// normal ending is Ctrl-C (proxy) ends cleanly at the first signal, by
// End, saying Note; only a later signal interrupts it.
type SoftEnd struct {
	Note string
	End  func()
}

// Options say how a command is interrupted.
type Options struct {
	// Note is what the interrupt's lines say.
	Note Note
	// Soft, when not nil, is the first signal's meaning: the second
	// signal is then the interrupt, and the third exits at once.
	Soft *SoftEnd
	// ExitCode is the status exiting at once ends the process with.
	ExitCode int
	// Cleanup runs after the exit-now hooks, before exiting at once.
	Cleanup func()
}

// errInterrupted is the cause of a run's context when the user interrupted
// it.
var errInterrupted = errors.New("interrupted")

// Interrupted reports whether ctx was cancelled by the user's interrupt.
func Interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}

// SameInterrupt is how soon after the first signal another one is the
// same interrupt: coreutils' timeout sends SIGTERM to the process and
// then to its group, and a terminal's Ctrl-C reaches every process of the
// foreground group, so one interrupt often arrives twice at once. A
// person pressing Ctrl-C again takes longer than this.
const SameInterrupt = time.Second

// Context returns a context cancelled by the first SIGINT, SIGTERM or
// SIGHUP, the first after o.Soft's when there is one: the run stops new
// attempts, lets those in flight finish, and still writes its report and
// results; o.Note.First says so on stderr. (A closed terminal's SIGHUP
// would otherwise kill the process and leave the demo's files, the
// handler --exec started and the results stream unended; a SIGHUP the
// process was started ignoring, as under nohup, stays ignored.) Another
// signal within SameInterrupt is the same interrupt. A later one exits at
// once with o.ExitCode, after the exit-now hooks (see OnExitNow) and
// o.Cleanup. The function returned stops watching.
func Context(parent context.Context, stderr io.Writer, o Options) (context.Context, func()) {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	// A process started with SIGHUP ignored (nohup) was asked to outlive
	// its terminal: notifying would un-ignore it, and a closed terminal
	// would end the run.
	if !signal.Ignored(syscall.SIGHUP) {
		signal.Notify(sig, syscall.SIGHUP)
	}
	done := make(chan struct{})
	go func() {
		// next waits for a signal that is not the one before it delivered
		// twice (see SameInterrupt); false once the command is done.
		var last time.Time
		next := func() bool {
			for {
				select {
				case <-sig:
					if !last.IsZero() && time.Since(last) < SameInterrupt {
						continue
					}
					last = time.Now()
					return true
				case <-done:
					return false
				}
			}
		}
		if !next() {
			return
		}
		if o.Soft != nil {
			o.Soft.End()
			fmt.Fprintf(stderr, "\nretrysim: %s (interrupt again to cut them short)\n", o.Soft.Note)
			if !next() {
				return
			}
		}
		first := time.Now()
		// Stop new attempts before saying so: by the time the user reads
		// the line, nothing new starts.
		cancel(errInterrupted)
		fmt.Fprintf(stderr, "\nretrysim: interrupted: %s (interrupt again to exit now)\n", o.Note.First)
		for {
			select {
			case <-sig:
				if time.Since(first) < SameInterrupt {
					continue // the same interrupt, delivered twice
				}
				RunExitNow()
				if o.Cleanup != nil {
					o.Cleanup()
				}
				fmt.Fprintf(stderr, "retrysim: interrupted again: exiting now%s\n", o.Note.Again)
				os.Exit(o.ExitCode)
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sig)
		close(done)
		cancel(nil)
	}
}
