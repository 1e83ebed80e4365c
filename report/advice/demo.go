package advice

import (
	"errors"
	"fmt"
	"io"
	"net"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/demo"
)

// DemoListen says why the demo command cannot listen on addr (err, as
// demo.CheckListen returns it) in the flags' words; nil stays nil.
func DemoListen(addr string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, demo.ErrNotHostPort):
		return fmt.Errorf("--addr %s: give host:port to listen on, e.g. 127.0.0.1:8080", addr)
	case errors.Is(err, demo.ErrNotLoopback):
		return fmt.Errorf("--addr %s is not a loopback address (127.0.0.1, ::1, localhost): the demo handler would take requests from other machines; pass --allow-remote to listen on it", addr)
	}
	return fmt.Errorf("--addr: %w", err)
}

// DemoBanner writes what the demo command serves in mode on addr: where
// webhooks and the effects go, and for each provider the secret it
// expects. A secret the user gave is never printed: given says where it
// came from ("given with --secret"), by provider; every other provider's
// is the one 'retrysim run --seed' generates from seed.
func DemoBanner(w io.Writer, mode demo.Mode, addr net.Addr, seed uint64, given map[string]string) {
	fmt.Fprintf(w, "demo handler (%s) on http://%s\n  webhooks: POST http://%s%s<provider>\n  effects:  GET  http://%s%s\n  secrets:  those 'retrysim run --seed %d' generates, unless given (--secret, RETRYSIM_SECRET_<PROVIDER>, secrets: in the config):\n",
		mode, addr, addr, demo.WebhookPath, addr, demo.EffectsPath, seed)
	width := 0
	for _, p := range policies.WireNames() {
		width = max(width, len(p))
	}
	for _, p := range policies.WireNames() {
		if from, ok := given[p]; ok {
			fmt.Fprintf(w, "    %-*s  (%s)\n", width, p, from)
			continue
		}
		fmt.Fprintf(w, "    %-*s  %s\n", width, p, policies.GenerateSecret(p, seed))
	}
}
