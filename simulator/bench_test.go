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
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
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
// items with the same number pending. Compare attempts/s of the two
// sub-benchmarks: the goal is model ≥ 40% of bare.
func BenchmarkModel(b *testing.B) {
	const events = 100_000 // all in flight at once: 100k pending
	p := mustPolicy(b, "stripe")
	attemptsPerRun := events * p.MaxAttempts()
	b.Run("engine", func(b *testing.B) {
		sc := blackHole(b)
		for b.Loop() {
			res, err := Run(context.Background(), Config{Policy: p, Scenario: sc, DryRun: true, Events: events, Over: time.Minute})
			if err != nil || res.Attempts != attemptsPerRun {
				b.Fatalf("attempts %d, err %v", res.Attempts, err)
			}
		}
		b.ReportMetric(float64(attemptsPerRun*b.N)/b.Elapsed().Seconds(), "attempts/s")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(attemptsPerRun*b.N), "ns/attempt")
	})
	b.Run("bare-heap", func(b *testing.B) {
		delays := p.Delays()
		for b.Loop() {
			h := bareHeap{}
			start := DefaultStart.UnixNano()
			for i := range events {
				h.push(bareItem{at: start + int64(i)*int64(time.Minute)/events, seq: uint64(i)})
			}
			seq := uint64(events)
			popped := 0
			for len(h) > 0 {
				it := h.pop()
				popped++
				n := int(it.seq>>40) + 1
				if n < len(delays)+1 {
					seq++
					h.push(bareItem{at: it.at + int64(delays[n-1]), seq: uint64(n)<<40 | seq&(1<<40-1)})
				}
			}
			if popped != attemptsPerRun {
				b.Fatalf("popped %d, want %d", popped, attemptsPerRun)
			}
		}
		b.ReportMetric(float64(attemptsPerRun*b.N)/b.Elapsed().Seconds(), "attempts/s")
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(attemptsPerRun*b.N), "ns/attempt")
	})
}

type bareItem struct {
	at  int64
	seq uint64
}

// bareHeap is the reference: a hand-written binary heap of (time, sequence)
// and nothing else.
type bareHeap []bareItem

func (h bareItem) less(o bareItem) bool { return h.at < o.at || (h.at == o.at && h.seq < o.seq) }

func (h *bareHeap) push(it bareItem) {
	*h = append(*h, it)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *bareHeap) pop() bareItem {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= last {
			break
		}
		m := l
		if r := l + 1; r < last && s[r].less(s[l]) {
			m = r
		}
		if !s[m].less(s[i]) {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// BenchmarkHTTP compares the engine's HTTP path with a plain Go keep-alive
// client loop at the same concurrency, both sending signed 1 KB bodies to a
// loopback handler that answers 200. Compare attempts/s: the goal is the
// engine ≥ 70% of the plain loop.
func BenchmarkHTTP(b *testing.B) {
	const concurrency = 32
	const events = 5000
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
	}))
	defer srv.Close()
	b.Run("engine", func(b *testing.B) {
		p := mustPolicy(b, "github")
		for b.Loop() {
			res, err := Run(context.Background(), Config{Policy: p, URL: srv.URL, Events: events, Over: time.Second, Concurrency: concurrency})
			if err != nil || res.Delivered != events {
				b.Fatalf("delivered %d, err %v", res.Delivered, err)
			}
		}
		b.ReportMetric(float64(events*b.N)/b.Elapsed().Seconds(), "attempts/s")
	})
	b.Run("plain-client", func(b *testing.B) {
		body := bytes.Repeat([]byte("x"), 1024)
		client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: concurrency}, Timeout: 10 * time.Second}
		for b.Loop() {
			var wg sync.WaitGroup
			work := make(chan int)
			for range concurrency {
				wg.Go(func() {
					for i := range work {
						m := hmac.New(sha256.New, []byte(policies.GenerateSecret("github", 1)))
						m.Write(body)
						req, _ := http.NewRequest(http.MethodPost, srv.URL, bytes.NewReader(body))
						req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(m.Sum(nil)))
						req.Header.Set("X-GitHub-Delivery", strconv.Itoa(i))
						resp, err := client.Do(req)
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
		b.ReportMetric(float64(events*b.N)/b.Elapsed().Seconds(), "attempts/s")
	})
}
