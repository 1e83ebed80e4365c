package demo

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Name says what the served handler is, for a report's target line:
// "built-in demo handler (naive, SQLite) http://…", with its TTL in the
// ttl mode.
func (d *Loopback) Name() string {
	if d.Handler.mode == TTL {
		return fmt.Sprintf("built-in demo handler (ttl %s, SQLite) %s", policies.FormatDuration(d.Handler.ttl), d.URL)
	}
	return fmt.Sprintf("built-in demo handler (%s, SQLite) %s", d.Handler.mode, d.URL)
}

// Target points a run's cfg at the served handler: its URL and Name, its
// effects, read once (it answers only when its own queue is done), and
// its Restart.
func (d *Loopback) Target(cfg *simulator.Config) {
	cfg.URL, cfg.TargetName = d.URL, d.Name()
	cfg.Effects, cfg.EffectsExact = d.Handler.Effects, true
	cfg.Restart = d.Restart
}
