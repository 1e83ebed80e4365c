package proxy

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// TestRunForwardsUntilTheEnd: a delivery taken in on the listener reaches
// the handler through the engine, and closing end ends the run once its
// schedule is over, with the server stopped.
func TestRunForwardsUntilTheEnd(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	secret := policies.GenerateSecret("stripe", 9)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	in := NewIntake(pol, secret, io.Discard, WithAck())
	var mu sync.Mutex
	var attempts []simulator.Record
	cfg := simulator.Config{
		Policy: pol, Secret: secret, Seed: 9, RunID: "test",
		Handler: http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}),
		Sink: func(r *simulator.Record) error {
			mu.Lock()
			defer mu.Unlock()
			if r.Kind == simulator.KindAttempt {
				attempts = append(attempts, *r)
			}
			return nil
		},
	}
	end := make(chan struct{})
	done := make(chan error, 1)
	go func() { done <- in.Run(context.Background(), ln, cfg, end) }()
	url := "http://" + ln.Addr().String() + "/webhooks/stripe"
	req := signedRequest(t, "stripe", secret, url, 1)
	req.RequestURI = ""
	req.URL.Host = ln.Addr().String()
	req.URL.Scheme = "http"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the delivery was answered %d", resp.StatusCode)
	}
	close(end)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 1 {
		t.Errorf("%d attempts reached the handler, want the delivery's one", len(attempts))
	}
	if _, err := http.Get(url); err == nil {
		t.Errorf("the intake still answers after the run")
	}
}
