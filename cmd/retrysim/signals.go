package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
)

// interruptNote is what a command says it does on the first interrupt,
// and what exiting at the second one leaves out.
type interruptNote struct{ first, again string }

// runInterruptNote is what a command that writes a report says.
var runInterruptNote = interruptNote{
	first: "finishing the attempts in flight and writing the partial report",
	again: ", without a report",
}

// errInterrupted is the cause of a run's context when the user interrupted
// it.
var errInterrupted = errors.New("interrupted")

// interrupted reports whether ctx was cancelled by the user's interrupt.
func interrupted(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errInterrupted)
}

// sameInterrupt is how soon after the first signal another one is the
// same interrupt: coreutils' timeout sends SIGTERM to the process and
// then to its group, and a terminal's Ctrl-C reaches every process of the
// foreground group, so one interrupt often arrives twice at once. A
// person pressing Ctrl-C again takes longer than this.
const sameInterrupt = time.Second

// interruptible returns a context cancelled by the first SIGINT or SIGTERM:
// the run stops new attempts, lets those in flight finish, and still writes
// its report and results, marked interrupted; note says so on stderr
// (commands that write no report say what they do instead). Another
// signal within sameInterrupt is the same interrupt. A later one exits at
// once with status 130, after the exit-now hooks (see onExitNow): the
// results stream written so far is kept, ended by an end record marked
// interrupted, and any other half-written output file is removed.
func interruptible(parent context.Context, stderr io.Writer, note interruptNote) (context.Context, func()) {
	return interruptibleAfter(parent, stderr, note, nil)
}

// softEnd is a gentler first stage before an interrupt: a command whose
// normal ending is Ctrl-C (proxy) ends cleanly at the first signal, by
// end, saying note; only a later signal interrupts it.
type softEnd struct {
	note string
	end  func()
}

// interruptibleAfter is interruptible with soft, when not nil, as the
// first signal's meaning: the second signal (after sameInterrupt) is then
// the interrupt, and the third exits at once.
func interruptibleAfter(parent context.Context, stderr io.Writer, note interruptNote, soft *softEnd) (context.Context, func()) {
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancelCause(parent)
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		// next waits for a signal that is not the one before it delivered
		// twice (see sameInterrupt); false once the command is done.
		var last time.Time
		next := func() bool {
			for {
				select {
				case <-sig:
					if !last.IsZero() && time.Since(last) < sameInterrupt {
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
		if soft != nil {
			soft.end()
			fmt.Fprintf(stderr, "\nretrysim: %s (interrupt again to cut them short)\n", soft.note)
			if !next() {
				return
			}
		}
		first := time.Now()
		// Stop new attempts before saying so: by the time the user reads
		// the line, nothing new starts.
		cancel(errInterrupted)
		fmt.Fprintf(stderr, "\nretrysim: interrupted: %s (interrupt again to exit now)\n", note.first)
		for {
			select {
			case <-sig:
				if time.Since(first) < sameInterrupt {
					continue // the same interrupt, delivered twice
				}
				runExitNow()
				fmt.Fprintf(stderr, "retrysim: interrupted again: exiting now%s\n", note.again)
				os.Exit(exitInterrupted)
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

// exitNow holds what must be done before exiting at once on a second
// interrupt, which skips every deferred call.
var exitNow struct {
	mu    sync.Mutex
	hooks []*func()
}

// onExitNow registers f to run before exiting at once on a second
// interrupt (newest first); the function returned unregisters it, once
// what it guards is done.
func onExitNow(f func()) (remove func()) {
	exitNow.mu.Lock()
	defer exitNow.mu.Unlock()
	p := &f
	exitNow.hooks = append(exitNow.hooks, p)
	return func() {
		exitNow.mu.Lock()
		defer exitNow.mu.Unlock()
		exitNow.hooks = slices.DeleteFunc(exitNow.hooks, func(q *func()) bool { return q == p })
	}
}

// runExitNow runs the exit-now hooks, newest first, and then removes every
// temporary file not yet committed.
func runExitNow() {
	exitNow.mu.Lock()
	hooks := slices.Clone(exitNow.hooks)
	exitNow.mu.Unlock()
	for _, f := range slices.Backward(hooks) {
		(*f)()
	}
	outfile.RemovePending()
}

// runsCut reports whether an interrupt cut the runs short
// (report.RunsCut), ctx saying whether the user interrupted.
func runsCut(ctx context.Context, runs []*report.Summary, want int) bool {
	return report.RunsCut(runs, want, interrupted(ctx))
}
