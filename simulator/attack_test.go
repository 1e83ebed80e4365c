package simulator

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
)

func attackRecords(recs []Record) []Record {
	var out []Record
	for _, r := range recs {
		if r.Kind == KindAttack {
			out = append(out, r)
		}
	}
	return out
}

// verifying answers 401 to a request whose signature fails with secret
// "s", as Discord's probe expects, and 204 otherwise.
func verifying(t *testing.T, wire string) http.HandlerFunc {
	w := mustWire(t, wire)
	return func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := w.Verify(r.Header, body, "", "s", time.Now()); err != nil {
			rw.WriteHeader(http.StatusUnauthorized)
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	}
}

// TestDiscordProbe: Discord probes the endpoint with an invalid signature
// before any event; an endpoint that does not answer 401 is removed, and
// every event is lost to it.
func TestDiscordProbe(t *testing.T) {
	discord := policytest.Lookup(t, "discord")
	t.Run("answered 401", func(t *testing.T) {
		res, recs := runWith(t, discord, verifying(t, "discord"), 5, time.Minute, 4)
		att := attackRecords(recs)
		if len(att) != 1 || !att[0].Probe || att[0].HandlerStatus != 401 || att[0].ProbeExpect != 401 || att[0].Attack != scenarios.AttackBadSignature {
			t.Fatalf("attack records %+v, want one probe answered 401", att)
		}
		if recs[1].Kind != KindAttack || !att[0].Time.Equal(recs[0].Time) {
			t.Error("the probe is not the first thing sent, at the start of the run")
		}
		if res.Delivered != 5 || !res.DisabledAt.IsZero() || res.Attacks != 1 {
			t.Errorf("delivered %d, disabled at %v, attacks %d; want 5, never, 1", res.Delivered, res.DisabledAt, res.Attacks)
		}
	})
	t.Run("answered 204", func(t *testing.T) {
		res, recs := runWith(t, discord, respond(http.StatusNoContent), 5, time.Minute, 4)
		if len(attempts(recs)) != 0 || res.Lost != 5 || !res.DisabledAt.Equal(DefaultStart()) {
			t.Fatalf("%d attempts, %d lost, disabled at %v; want none sent, all 5 lost, disabled at the start", len(attempts(recs)), res.Lost, res.DisabledAt)
		}
		if f := fates(recs); f[FateDisabled] != 5 {
			t.Errorf("fates %v, want 5 disabled", f)
		}
		end := recs[len(recs)-1]
		if !strings.Contains(end.DisabledBy, "invalid-signature probe with 204, not 401") {
			t.Errorf("disabled_by %q", end.DisabledBy)
		}
	})
	t.Run("not in a dry run, nor for webhook events", func(t *testing.T) {
		recs, _ := collect(t, Config{Policy: discord, DryRun: true, Events: 2})
		if len(attackRecords(recs)) != 0 {
			t.Error("a dry run probed")
		}
		_, recs = runWith(t, policytest.Lookup(t, "discord-events"), respond(http.StatusNoContent), 2, time.Minute, 1)
		if len(attackRecords(recs)) != 0 {
			t.Error("discord-events probed: only the interactions endpoint is probed")
		}
	})
}

// TestAttacksAreDeterministic: the same seed sends the same attacks, on
// the same ids, beside the same attempts, at any concurrency; a dry run
// sends none.
func TestAttacksAreDeterministic(t *testing.T) {
	srv := ok200(t)
	run := func(concurrency int) []string {
		recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "forged"), URL: srv.URL,
			Events: 12, Seed: 5, RunID: "test", Concurrency: concurrency, Secret: "s"})
		var out []string
		for _, r := range attackRecords(recs) {
			out = append(out, r.EventID+" "+r.Attack+" "+r.AttackChange+" "+r.Time.String())
		}
		return out
	}
	one, many := run(1), run(32)
	if len(one) != 18 || !slices.Equal(one, many) {
		t.Errorf("%d attacks at concurrency 1, %d at 32, equal %t; want 18 (3 events × 6) and the same", len(one), len(many), slices.Equal(one, many))
	}
	recs, _ := collect(t, Config{Policy: policytest.Lookup(t, "stripe"), Scenario: scenariotest.Lookup(t, "forged"), DryRun: true, Events: 12})
	if len(attackRecords(recs)) != 0 {
		t.Error("a dry run sent attacks")
	}
}

// TestAttackAnnouncedOnce: an attack the scheme makes pointless is said so
// once, at the start, however often the scenario selects it.
func TestAttackAnnouncedOnce(t *testing.T) {
	srv := ok200(t)
	sc, err := scenarios.Decode("t.yaml", []byte("name: t\nfaults: [{type: stale-timestamp}, {type: stale-timestamp, every: 2}]"))
	if err != nil {
		t.Fatal(err)
	}
	recs, res := collect(t, Config{Policy: policytest.Lookup(t, "github"), Scenario: sc, URL: srv.URL, Events: 6, Secret: "s"})
	att := attackRecords(recs)
	if len(att) != 1 || att[0].NotApplicable == "" || att[0].EventID != "" || res.Attacks != 0 {
		t.Errorf("attack records %+v, attacks sent %d; want one announcement and nothing sent", att, res.Attacks)
	}
}
