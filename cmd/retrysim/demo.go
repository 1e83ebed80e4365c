package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/configfile"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

func newDemoCmd() *cobra.Command {
	var mode, addr, db, ttl string
	var secrets []string
	var seed uint64
	var allowRemote bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Serve the built-in demo webhook handler",
		Long: `Demo serves the demo webhook handler that 'run' uses when no --url is given: it verifies
each provider's signature, then credits an account in a real SQLite database. Each mode is
one way of handling a delivery seen before, and shows what breaks it:

  naive           credits on every delivery                        any duplicate
  memory          dedups in a map inside the process               a restart
  check-then-act  looks the id up, works, then records it          two overlapping deliveries
  idempotent      unique id in the same transaction as the credit  nothing
  ttl             a dedup key that expires after --ttl, measured   a retry after the TTL
                  on the Retrysim-Virtual-Time header
  unverified      idempotent, but skips the signature check        a forged request
                  (try it with run --scenario forged)
  queue           answers 200 at once; a worker credits later,     nothing
                  both guarded by a unique id
  queue-unguarded answers 200 at once, queues every delivery, and  any duplicate, credited
                  its worker credits every job                     after its answer

Webhooks go to POST /webhooks/<provider>; GET /_retrysim/effects answers how often each
event was processed, for run's --effects-url.

Examples:
  retrysim demo --mode naive --addr 127.0.0.1:8080
  retrysim demo --mode ttl --ttl 24h --addr 127.0.0.1:8080
  retrysim demo --mode queue-unguarded --addr 127.0.0.1:8080
  retrysim run --provider stripe --scenario late-redelivery --url http://127.0.0.1:8080/webhooks/stripe \
      --effects-url http://127.0.0.1:8080/_retrysim/effects`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			st, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			m, err := demo.ParseMode(mode)
			if err != nil {
				return badInput(fmt.Errorf("--mode: %w", err))
			}
			if err := advice.DemoListen(addr, demo.CheckListen(cmd.Context(), addr, allowRemote)); err != nil {
				return badInput(err)
			}
			st.redactGiven(cmd.Context(), cmd.ErrOrStderr(), secrets)
			sec, err := advice.Secrets(secrets)
			if err != nil {
				return badInput(err)
			}
			d, err := parseTTL("ttl", ttl)
			if err != nil {
				return badInput(err)
			}
			// --secret, then RETRYSIM_SECRET_<PROVIDER> and the config's
			// secrets:, as run takes them: a run given the same
			// environment signs with what the demo expects.
			from := map[string]string{}
			for _, w := range policies.WireNames() {
				if _, ok := sec[w]; ok {
					from[w] = "given with --secret"
				} else if v, src, ok := configfile.Secret(w, st.secrets, st.path, os.Getenv); ok {
					sec[w] = v
					from[w] = src
				}
			}
			opts := []demo.Option{demo.WithSeed(seed), demo.WithTTL(d)}
			for p, s := range sec {
				opts = append(opts, demo.WithSecret(p, s))
			}
			if db != "" {
				opts = append(opts, demo.WithDB(db))
			}
			h, err := demo.New(m, opts...)
			if err != nil {
				return err
			}
			defer h.Close()
			defer interrupt.OnExitNow(func() { h.RemoveTemp() })()
			ln, err := net.Listen("tcp", addr)
			if err != nil {
				return badInput(fmt.Errorf("--addr: %w", err))
			}
			ctx, stop := interruptible(cmd.Context(), cmd.ErrOrStderr(), interrupt.Note{First: "stopping the demo handler"}, nil)
			defer stop()
			srv := demo.NewServer(h)
			go func() {
				<-ctx.Done()
				sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				srv.Shutdown(sctx)
			}()
			advice.DemoBanner(cmd.OutOrStdout(), m, ln.Addr(), seed, from)
			if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&mode, "mode", string(demo.Naive), "handler mode: "+strings.Join(demo.ModeNames(), ", "))
	cmd.Flags().StringVar(&addr, "addr", demo.DefaultAddr, "address to listen on")
	cmd.Flags().StringVar(&db, "db", "", "SQLite file to keep the data in (default: a temporary one, removed on exit)")
	cmd.Flags().StringArrayVar(&secrets, "secret", nil, "signing secret as provider=value (repeatable; also RETRYSIM_SECRET_<PROVIDER> or secrets: in the config; default: generated from --seed)")
	cmd.Flags().Uint64Var(&seed, "seed", simulator.DefaultSeed, "expect the secrets 'retrysim run' generates from this seed")
	cmd.Flags().StringVar(&ttl, "ttl", policies.FormatDuration(demo.DefaultTTL), "how long the ttl mode keeps a dedup key (virtual time)")
	cmd.Flags().BoolVar(&allowRemote, "allow-remote", false, "listen on an address that is not loopback")
	return cmd
}
