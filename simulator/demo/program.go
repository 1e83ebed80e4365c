package demo

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Program runs a demo handler in mode as a standalone program, the body of
// each examples/handlers/<mode>/main.go, and returns its exit code. It reads
// its flags from args, listens, prints one line "listening on http://ADDR",
// and serves until ctx is done or the process gets SIGINT or SIGTERM.
//
// Its data lives in an SQLite file (--db, default <mode>.db in the working
// directory) that outlives the process, as a real service's database does:
// restarting the program keeps the ledger and the processed ids, and loses
// only what the process held in memory.
func Program(ctx context.Context, mode Mode, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(string(mode), flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", DefaultAddr, "address to listen on (loopback)")
	db := fs.String("db", string(mode)+".db", "SQLite file holding the ledger and the dedup records")
	// Each mode lists only its own flags: -ttl and -work mean nothing to
	// the others.
	ttl, work := new(time.Duration), new(time.Duration)
	*ttl, *work = DefaultTTL, DefaultWork
	if mode == TTL {
		fs.DurationVar(ttl, "ttl", DefaultTTL, "how long a dedup id is kept, in the virtual time of the Retrysim-Virtual-Time header")
	}
	if mode == CheckThenAct {
		fs.DurationVar(work, "work", DefaultWork, "how long the handler works between its check and its record")
	}
	if mode == Queue || mode == QueueUnguarded {
		*work = DefaultQueueDelay
		fs.DurationVar(work, "work", DefaultQueueDelay, "how long the worker waits before it takes the jobs queued (the credit lands that long after the answer)")
	}
	seed := fs.Uint64("seed", simulator.DefaultSeed, "expect the secrets 'retrysim run' generates from this seed")
	var secrets []string
	fs.Func("secret", "signing secret as provider=value (repeatable; default: the one 'retrysim run' generates from --seed)", func(s string) error {
		secrets = append(secrets, s)
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	opts := []Option{WithDB(*db), WithTTL(*ttl), WithWork(*work), WithSeed(*seed)}
	for _, s := range secrets {
		prov, val, ok := strings.Cut(s, "=")
		if _, known := policies.WireFor(prov); !ok || !known || val == "" {
			fmt.Fprintf(stderr, "%s: --secret %q: expected provider=value with a provider among %s\n", mode, prov, strings.Join(policies.WireNames(), ", "))
			return 2
		}
		opts = append(opts, WithSecret(prov, val))
	}
	h, err := New(mode, opts...)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", mode, err)
		return 2
	}
	defer h.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", mode, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "listening on http://%s (%s handler; webhooks: POST %s<provider>; effects: GET %s; data: %s)\n",
		ln.Addr(), mode, WebhookPath, EffectsPath, *db)
	if err := Serve(ctx, ln, h); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", mode, err)
		return 1
	}
	return 0
}

// Serve serves h on ln until ctx is done, then shuts the server down,
// letting requests in flight finish for up to five seconds.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := NewServer(h)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	err := srv.Serve(ln)
	cancel()
	<-done
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}
