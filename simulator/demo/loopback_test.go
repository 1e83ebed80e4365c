package demo

import (
	"context"
	"net"
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

// A restart that finds its address taken by another program says which
// address, and leaves the demo able to close, or to restart once the
// address is free again.
func TestLoopbackRestartOnATakenAddress(t *testing.T) {
	l, err := ServeLoopback(Naive, "stripe", "whsec_loopback_test_secret")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The demo's port, taken between its stop and its start: its address
	// stands for it.
	own := l.addr
	l.addr = other.Addr().String()
	err = l.Restart(context.Background())
	if err == nil || !strings.Contains(err.Error(), "demo handler: listening again on "+l.addr) {
		t.Fatalf("restart on a taken address: %v", err)
	}
	other.Close()
	l.addr = own
	if err := l.Restart(context.Background()); err != nil {
		t.Fatalf("restart once the address is free: %v", err)
	}
}
