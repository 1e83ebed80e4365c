package demo

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// A loopback demo serves its effects on the address of its URL, serves
// them there again after a restart, and nothing once closed.
func TestLoopbackRestartsOnItsAddress(t *testing.T) {
	l, err := ServeLoopback(Naive, "stripe", "whsec_loopback_test_secret")
	if err != nil {
		t.Fatal(err)
	}
	effects := strings.TrimSuffix(l.URL, WebhookPath+"stripe") + EffectsPath
	get := func() error {
		res, err := http.Get(effects)
		if err == nil {
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s answered %d", effects, res.StatusCode)
			}
		}
		return err
	}
	if err := get(); err != nil {
		t.Fatal(err)
	}
	if err := l.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := get(); err != nil {
		t.Fatalf("after a restart: %v", err)
	}
	l.Close()
	if err := get(); err == nil {
		t.Fatal("the closed demo still answers")
	}
}

// Restarts that follow one another with no request between them (a
// scenario's later restarts, once every event has been delivered) each
// listen again on the demo's address: the server a restart stopped has
// let go of it, whether or not it had started serving.
func TestLoopbackRestartsBackToBack(t *testing.T) {
	l, err := ServeLoopback(Naive, "stripe", "whsec_loopback_test_secret")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for i := range 20 {
		if err := l.Restart(context.Background()); err != nil {
			t.Fatalf("restart %d: %v", i+1, err)
		}
	}
	effects := strings.TrimSuffix(l.URL, WebhookPath+"stripe") + EffectsPath
	res, err := http.Get(effects)
	if err != nil {
		t.Fatalf("after 20 restarts: %v", err)
	}
	res.Body.Close()
}
