package simulator

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// BenchmarkHTTPStripe compares the engine with Stripe's real wire (each
// event's body built from its typed objects, Stripe-Signature over
// "t.body", Stripe's headers) with a plain Go keep-alive client posting what
// Stripe posts: a body of the same size, signed the same way, with the same
// headers, at the same concurrency and with the same keep-alive pool,
// against a loopback handler that answers 200. What the engine sends beyond
// that (its virtual-time header, a body built for each event, the records)
// is the engine's cost. Compare attempts/s, or cpu-ns/attempt on a shared
// machine: the goal is the engine ≥ 0.85 of the plain client.
func BenchmarkHTTPStripe(b *testing.B) {
	const concurrency = 32
	const events = 5000
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	p := mustPolicy(b, "stripe")
	secret := policies.GenerateSecret("stripe", 1)
	ev := policies.Event{Seed: 1, Type: p.Wire().DefaultEventType(), Created: DefaultStart()}
	p.Wire().NewEvent(&ev)
	sample, _ := p.Wire().Body(ev)
	b.Run("engine-stripe", func(b *testing.B) {
		cpu := cpuTime()
		for b.Loop() {
			res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Second, Concurrency: concurrency, Secret: secret})
			if err != nil || res.Delivered != events {
				b.Fatalf("delivered %d, err %v", res.Delivered, err)
			}
		}
		reportRate(b, events*b.N, cpuTime()-cpu)
	})
	b.Run("plain-client", func(b *testing.B) {
		body := bytes.Repeat([]byte("x"), len(sample))
		client := &http.Client{Transport: &http.Transport{MaxIdleConns: concurrency, MaxIdleConnsPerHost: concurrency, DisableCompression: true}, Timeout: p.Timeout.D()}
		cpu := cpuTime()
		for b.Loop() {
			plainPosts(b, client, events, concurrency, func(i int) *http.Request {
				t := strconv.Itoa(i)
				m := hmac.New(sha256.New, []byte(secret))
				m.Write([]byte(t + "."))
				m.Write(body)
				req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json; charset=utf-8")
				req.Header.Set("User-Agent", "Stripe/1.0 (+https://stripe.com/docs/webhooks)")
				req.Header.Set("Accept", "*/*; q=0.5, application/xml")
				req.Header.Set("Cache-Control", "no-cache")
				req.Header.Set("Stripe-Signature", "t="+t+",v1="+hex.EncodeToString(m.Sum(nil)))
				return req
			})
		}
		reportRate(b, events*b.N, cpuTime()-cpu)
	})
}
