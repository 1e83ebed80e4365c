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
	"runtime/pprof"
	"strconv"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator/benchref"
)

// engineSide and plainSide label the two sides of BenchmarkHTTPStripe.
var (
	engineSide = pprof.Labels("side", "engine")
	plainSide  = pprof.Labels("side", "plain")
)

// BenchmarkHTTPStripe compares the engine with Stripe's real wire (each
// event's body built from its typed objects, Stripe-Signature over
// "t.body", Stripe's headers) with a plain Go keep-alive client posting what
// Stripe posts: a body of the same size, signed the same way, with the same
// headers, at the same concurrency and with a keep-alive pool of the same
// size, new for each run as the engine's is, against a loopback handler
// that answers 200. What the engine sends beyond that (its virtual-time
// header, a body built for each event, the records) is the engine's cost.
//
// At each concurrency the two run by turns, one run each per iteration,
// and each pair gives a ratio: "engine/plain" is the plain client's wall
// time over the engine's (the engine's attempts/s over the plain
// client's), "engine/plain-cpu" the same in CPU time; each reported as
// the median of the pairs and their range (-min, -max); and each side's
// CPU time an attempt, in µs, the handler's and the collector's included
// (engine-cpu-µs/attempt, plain-cpu-µs/attempt). On a machine
// shared with other work, whose speed drifts from one second to the next,
// the two sides of a pair see the same machine. The goal is the engine ≥
// 0.95 of the plain client at every concurrency.
//
// Each side runs under a profiler label (side=engine, side=plain), which
// the goroutines it starts inherit: with -cpuprofile, `go tool pprof
// -tags` splits the client sides' CPU time, and -tagfocus=side=engine
// shows one side alone. The handler's goroutines and the garbage
// collector's carry no label.
func BenchmarkHTTPStripe(b *testing.B) {
	const events = 5000
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	p := policytest.Lookup(b, "stripe")
	secret := policies.GenerateSecret("stripe", 1)
	ev := policies.Event{Seed: 1, Type: p.Wire().DefaultEventType(), Created: DefaultStart()}
	p.Wire().NewEvent(&ev)
	sample, _ := p.Wire().Body(ev)
	body := bytes.Repeat([]byte("x"), len(sample))
	engine := func(b *testing.B, concurrency int) {
		res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Second, Concurrency: concurrency, Secret: secret})
		if err != nil || res.Delivered != events {
			b.Fatalf("delivered %d, err %v", res.Delivered, err)
		}
	}
	plain := func(b *testing.B, concurrency int) {
		tr := &http.Transport{MaxIdleConns: concurrency, MaxIdleConnsPerHost: concurrency, DisableCompression: true}
		defer tr.CloseIdleConnections()
		client := &http.Client{Transport: tr, Timeout: p.Timeout.D()}
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
	for _, c := range []int{8, 64, 256} {
		b.Run("c="+strconv.Itoa(c), func(b *testing.B) {
			var wall, cpu benchref.Pairs
			var engineCPU, plainCPU time.Duration
			for b.Loop() {
				w0, c0 := time.Now(), cpuTime()
				pprof.Do(context.Background(), engineSide, func(context.Context) { engine(b, c) })
				w1, c1 := time.Now(), cpuTime()
				pprof.Do(context.Background(), plainSide, func(context.Context) { plain(b, c) })
				c2 := cpuTime()
				wall.AddTimes(time.Since(w1), w1.Sub(w0))
				cpu.AddTimes(c2-c1, c1-c0)
				engineCPU, plainCPU = engineCPU+c1-c0, plainCPU+c2-c1
			}
			wall.Report(b, "engine/plain")
			cpu.Report(b, "engine/plain-cpu")
			if attempts := float64(events * b.N); plainCPU > 0 {
				b.ReportMetric(float64(engineCPU.Microseconds())/attempts, "engine-cpu-µs/attempt")
				b.ReportMetric(float64(plainCPU.Microseconds())/attempts, "plain-cpu-µs/attempt")
			}
		})
	}
}
