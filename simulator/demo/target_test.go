package demo

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// TestTargetRunsAgainstTheDemo: a run pointed at a served demo reaches it,
// reads its effects, and names it with its mode (and the ttl mode's TTL).
func TestTargetRunsAgainstTheDemo(t *testing.T) {
	secret := "whsec_loopback_test_secret"
	l, err := ServeLoopback(TTL, "stripe", secret, WithTTL(36*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	pol := policytest.Lookup(t, "stripe")
	cfg := simulator.Config{Policy: pol, Secret: secret, Events: 2, Seed: 1, RunID: "test"}
	l.Target(&cfg)
	if want := "built-in demo handler (ttl 1d12h, SQLite) " + l.URL; cfg.TargetName != want {
		t.Errorf("named %q, want %q", cfg.TargetName, want)
	}
	if _, err := simulator.Run(context.Background(), cfg); err != nil {
		t.Fatal(err)
	}
	effects, err := cfg.Effects(context.Background())
	if err != nil || len(effects) != 2 {
		t.Errorf("effects %v, %v; want the run's 2 events", effects, err)
	}
	naive, err := ServeLoopback(Naive, "stripe", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer naive.Close()
	if n := naive.Name(); !strings.HasPrefix(n, "built-in demo handler (naive, SQLite) http://127.0.0.1:") {
		t.Errorf("named %q", n)
	}
}
