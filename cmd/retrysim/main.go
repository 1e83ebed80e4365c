// Command retrysim replays webhook providers' retry schedules on a fake clock
// against a real handler, and reports every attempt, whether the handler
// stayed idempotent, and the dedup-key TTL it needs.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/report/redact"
)

// Exit codes.
const (
	exitOK          = 0
	exitGate        = 1   // a --fail-on gate failed
	exitBadInput    = 2   // bad input or config
	exitWrite       = 3   // an output could not be written (a full disk, a closed pipe)
	exitStopped     = 4   // the handler could not be restarted, after writing the partial report
	exitInterrupted = 130 // stopped by Ctrl-C or SIGTERM, after writing the partial report
	// exitInternal is a bug in retrysim (sysexits' EX_SOFTWARE): never
	// the bad-input code, which would blame the user's input.
	exitInternal = 70
)

// exitError carries an exit code with an error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// writeFailed marks err as an output that could not be written (exit 3):
// the run itself may have gone well, and the input was fine.
func writeFailed(err error) error {
	if err == nil {
		return nil
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{code: exitWrite, err: err}
}

// badInput marks err as the user's input being wrong (exit 2).
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitBadInput, err: err}
}

func main() {
	floor := newHeapFloor()
	writesToClosedPipesFail()
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	runtime.KeepAlive(floor)
	os.Exit(code)
}

// run executes the command line and returns the exit code. Everything it
// writes goes through a redactor, so no secret given on the command line
// shows up in the output, errors or a crash report.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return execute(context.Background(), newRootCmd(), args, stdin, stdout, stderr)
}

// execute runs root with args under ctx: run's body, apart for tests
// (whose ctx may carry a resolver of their own, see withResolver).
func execute(ctx context.Context, root *cobra.Command, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	sec, st := &redact.Set{}, newSettings()
	out, errw := sec.Writer(stdout), sec.Writer(stderr)
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(errw, "retrysim: internal error (a bug in retrysim): %v\n%s", r, debug.Stack())
			code = exitInternal
		}
		out.Flush()
		errw.Flush()
	}()
	// Go's own log lines (net/http's "Unsolicited response received on
	// idle HTTP channel", a server's TLS handshake errors) go through the
	// redactor too.
	prevLog := log.Writer()
	log.SetOutput(errw)
	defer log.SetOutput(prevLog)
	plainBools(root)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(out)
	root.SetErr(errw)
	err := root.ExecuteContext(withSettings(withSecrets(ctx, sec), st))
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(errw, "retrysim: %s\n", redact.Printable(attributeSources(err.Error(), st.sources)))
	var ee *exitError
	if errors.As(err, &ee) && (ee.code == exitGate || ee.code == exitInterrupted || ee.code == exitWrite || ee.code == exitStopped) {
		return ee.code
	}
	return exitBadInput
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "retrysim",
		Short: "Replay webhook retry storms against your handler, on a fake clock",
		Long: `retrysim replays each webhook provider's real retry schedule on a fake clock — days of
retries in seconds — while every attempt is a real, correctly signed HTTP request to your
handler, with failures and timeouts injected in between. It reports every attempt, whether
your handler stayed idempotent, and the dedup-key TTL you actually need.

Examples:
  retrysim run --provider shopify --scenario flaky-network
  retrysim run --provider stripe --url http://localhost:3000/webhooks/stripe --secret stripe=whsec_…
  retrysim run --provider stripe --url … --effects-url … --fail-on duplicate-effects   # in CI
  retrysim ttl --provider stripe,github,shopify
  retrysim replay --request delivery.http --url http://127.0.0.1:3000/webhooks/stripe
  retrysim policies show stripe`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("retrysim {{.Version}}\n")
	root.PersistentFlags().String("config", "", "config file (default: retrysim.yaml in the working directory, if present)")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return badInput(fmt.Errorf("%w (see '%s --help')", err, c.CommandPath()))
	})
	root.AddCommand(newRunCmd(), newProxyCmd(), newPoliciesCmd(), newScenariosCmd(), newDemoCmd(), newReportCmd(), newTTLCmd(), newReplayCmd())
	completions(root)
	return root
}

// oneArg is a command's positional-argument check for exactly one argument:
// without it, or with more, the error says what the argument is (need), and
// the command exits 2.
func oneArg(need string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch len(args) {
		case 1:
			return nil
		case 0:
			return badInput(fmt.Errorf("%s needs %s", strings.TrimPrefix(cmd.CommandPath(), "retrysim "), need))
		}
		return badInput(fmt.Errorf("%s takes one argument, %s; got %d: %s", strings.TrimPrefix(cmd.CommandPath(), "retrysim "), need, len(args), strings.Join(args, " ")))
	}
}
