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
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator/benchref"
)

// blackHole fails every attempt without reaching the handler, so each event
// rides its whole schedule.
func blackHole(tb testing.TB) scenarios.Scenario {
	tb.Helper()
	s, err := scenarios.Decode("bench.yaml", []byte("name: bench-black-hole\nfaults: [{type: drop-request}]\n"))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkModel compares the engine in model mode (--dry-run) with a bare
// binary-heap loop that pushes and pops the same number of (time, sequence)
// items with the same number pending. The goal is model ≥ 60% of bare in
// attempts/s. "engine" and "bare-heap" measure each alone; "ratio" runs the
// two by turns, one run each per iteration, and reports bare-heap's CPU
// time over the engine's for the same attempts (the goal's figure): on a
// shared machine, whose speed drifts from one second to the next, the
// two sides then see the same machine.
func BenchmarkModel(b *testing.B) {
	const events = 100_000 // all in flight at once: 100k pending
	p := policytest.Lookup(b, "stripe")
	attemptsPerRun := events * p.MaxAttempts()
	sc := blackHole(b)
	engine := func(b *testing.B) {
		res, err := Run(context.Background(), Config{Policy: p, Scenario: sc, DryRun: true, Events: events, Over: time.Minute})
		if err != nil || res.Attempts != attemptsPerRun {
			b.Fatalf("attempts %d, err %v", res.Attempts, err)
		}
	}
	delays := p.Delays()
	bare := func(b *testing.B) {
		if popped := benchref.BareHeap(delays, events, time.Minute, DefaultStart()); popped != attemptsPerRun {
			b.Fatalf("popped %d, want %d", popped, attemptsPerRun)
		}
	}
	for _, s := range []struct {
		name string
		run  func(*testing.B)
	}{{"engine", engine}, {"bare-heap", bare}} {
		b.Run(s.name, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				s.run(b)
			}
			reportRate(b, attemptsPerRun*b.N, cpuTime()-cpu)
		})
	}
	b.Run("ratio", func(b *testing.B) {
		var pairs benchref.Pairs
		for b.Loop() {
			t0 := cpuTime()
			engine(b)
			t1 := cpuTime()
			bare(b)
			pairs.AddTimes(cpuTime()-t1, t1-t0)
		}
		pairs.Report(b, "bare/engine")
	})
}

// reportRate reports attempts per second and the wall and CPU time per
// attempt. On a shared machine the CPU time is the steadier figure to
// compare; the goals are stated on attempts/s.
func reportRate(b *testing.B, attempts int, cpu time.Duration) {
	b.ReportMetric(float64(attempts)/b.Elapsed().Seconds(), "attempts/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(attempts), "ns/attempt")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(attempts), "cpu-ns/attempt")
	}
}

// cpuTime is the CPU time the process has used (benchref.CPUTime).
func cpuTime() time.Duration { return benchref.CPUTime() }

// BenchmarkHTTP compares the engine's HTTP path with a plain Go keep-alive
// client loop at the same concurrency, against a loopback handler that
// answers 200. "engine" sends what GitHub sends (a ~1 KB JSON body built
// for each event, eight headers, two HMACs); "engine-plain-wire" sends
// exactly what the plain loop sends (the same 1 KB body, one HMAC-SHA256
// signature and a delivery id), so the gap between it and the plain loop
// is the engine's own cost, and the gap between the two engines is the
// cost of GitHub's wire format (BenchmarkHTTPStripe measures Stripe's).
// The three run by turns, one run each per iteration; each engine's pairs
// with the plain loop of its iteration give "github/plain" and
// "plain-wire/plain", the plain loop's wall time over the engine's (the
// engine's attempts/s over the loop's). The goal is plain-wire/plain ≥
// 0.70.
func BenchmarkHTTP(b *testing.B) {
	const concurrency = 32
	const events = 5000
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	body := bytes.Repeat([]byte("x"), 1024)
	secret := policies.GenerateSecret("github", 1)
	engine := func(b *testing.B, p policies.Policy) time.Duration {
		start := time.Now()
		res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Second, Concurrency: concurrency, Secret: secret})
		if err != nil || res.Delivered != events {
			b.Fatalf("delivered %d, err %v", res.Delivered, err)
		}
		return time.Since(start)
	}
	github := policytest.Lookup(b, "github")
	plainWire := policytest.Lookup(b, "github")
	plainWire.Provider = registerPlainWire(body)
	plain := func(b *testing.B) time.Duration {
		start := time.Now()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}, Timeout: 10 * time.Second}
		plainLoop(b, client, srv.URL, secret, body, events, concurrency)
		client.CloseIdleConnections()
		return time.Since(start)
	}
	var full, wire benchref.Pairs
	for b.Loop() {
		g := engine(b, github)
		w := engine(b, plainWire)
		c := plain(b)
		full.AddTimes(c, g)
		wire.AddTimes(c, w)
	}
	full.Report(b, "github/plain")
	wire.Report(b, "plain-wire/plain")
}

// BenchmarkSlowHandler is 20,000 Stripe deliveries at concurrency 64 to a
// loopback handler that holds one request in 100 for a second, against a
// plain Go keep-alive client doing the same. The slow requests hold a slot
// each and nothing else. The two run by turns, one run each per
// iteration, and "engine-time/plain-time" is the engine's wall time over
// the plain client's, a multiple (the median of the pairs and their range;
// the other benchmarks' ratios are the other way up): the goal is at most
// 1.5. One iteration lasts seconds; run it with
// -benchtime 5x.
func BenchmarkSlowHandler(b *testing.B) {
	const concurrency = 64
	const events = 20000
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if n.Add(1)%100 == 0 {
			time.Sleep(time.Second) // the handler's real time
		}
	}))
	defer srv.Close()
	body := bytes.Repeat([]byte("x"), 1024)
	secret := policies.GenerateSecret("stripe", 1)
	p := policytest.Lookup(b, "stripe")
	var pairs benchref.Pairs
	for b.Loop() {
		start := time.Now()
		res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Second, Concurrency: concurrency, Secret: secret})
		if err != nil || res.Delivered != events {
			b.Fatalf("delivered %d, err %v", res.Delivered, err)
		}
		mid := time.Now()
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}, Timeout: 30 * time.Second}
		plainLoop(b, client, srv.URL, secret, body, events, concurrency)
		client.CloseIdleConnections()
		// The engine's time over the plain client's: a multiple, as the
		// goal is stated.
		pairs.AddTimes(mid.Sub(start), time.Since(mid))
	}
	pairs.Report(b, "engine-time/plain-time")
}

// plainLoop posts events signed copies of body from concurrency goroutines.
func plainLoop(b *testing.B, client *http.Client, url, secret string, body []byte, events, concurrency int) {
	plainPosts(b, client, events, concurrency, func(i int) *http.Request {
		m := hmac.New(sha256.New, []byte(secret))
		m.Write(body)
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
		req.Header.Set("X-GitHub-Delivery", strconv.Itoa(i))
		return req
	})
}

// plainPosts sends request(i) for every i below events from concurrency
// goroutines with a plain client, reading and closing each answer: what
// the engine's HTTP path is compared with.
func plainPosts(b *testing.B, client *http.Client, events, concurrency int, request func(i int) *http.Request) {
	var wg sync.WaitGroup
	work := make(chan int)
	for range concurrency {
		wg.Go(func() {
			for i := range work {
				resp, err := client.Do(request(i))
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		})
	}
	for i := range events {
		work <- i
	}
	close(work)
	wg.Wait()
}

// BenchmarkFailingRun is the wall time of 1,000 Stripe events against a
// loopback handler that fails every attempt at once: 16 attempts each over 3
// virtual days, 16,000 attempts. With no coupling between the events, wall
// time follows the attempts divided by the concurrency, not the virtual days.
func BenchmarkFailingRun(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.WriteHeader(http.StatusInternalServerError)
	}))
	defer srv.Close()
	p := policytest.Lookup(b, "stripe")
	const events = 1000
	for b.Loop() {
		cfg := Config{Policy: p, URL: srv.URL, Events: events}
		if err := cfg.providerDefaults(); err != nil {
			b.Fatal(err)
		}
		c, err := cfg.resolve()
		if err != nil {
			b.Fatal(err)
		}
		e := newEngine(c)
		res, err := e.run(context.Background())
		e.release()
		if err != nil || res.Attempts != events*p.MaxAttempts() {
			b.Fatalf("attempts %d, err %v", res.Attempts, err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

// plainWire sends what BenchmarkHTTP's plain loop sends: one fixed body,
// signed with HMAC-SHA256, and a delivery id.
type plainWire struct{ body []byte }

var registerPlain sync.Once

// registerPlainWire registers plainWire (once) and returns its name.
func registerPlainWire(body []byte) string {
	registerPlain.Do(func() { policies.RegisterWire(plainWire{body}) })
	return "bench-plain"
}

func (plainWire) Name() string                           { return "bench-plain" }
func (plainWire) DefaultEventType() string               { return "push" }
func (plainWire) NewEvent(ev *policies.Event)            { ev.ID = strconv.Itoa(ev.Seq) }
func (w plainWire) Body(policies.Event) ([]byte, string) { return w.body, "application/octet-stream" }
func (plainWire) DedupField() string                     { return "X-GitHub-Delivery header" }
func (plainWire) Header(h http.Header, d policies.Delivery) {
	m := hmac.New(sha256.New, []byte(d.Secret))
	m.Write(d.Body)
	h.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
	h.Set("X-GitHub-Delivery", d.Event.ID)
}
func (plainWire) DedupID(h http.Header, _ []byte) (string, error) {
	return h.Get("X-GitHub-Delivery"), nil
}
func (plainWire) Verify(http.Header, []byte, string, string, time.Time) error { return nil }
