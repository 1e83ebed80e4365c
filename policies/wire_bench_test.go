package policies

import (
	"net/http"
	"testing"
	"time"
)

// BenchmarkWire is the cost of one attempt's wire work for each wire
// format's default event: building the body (as the engine does once per
// event) and the signed headers (once per attempt). Compare ns/op and
// allocs/op before and after a change with benchstat.
func BenchmarkWire(b *testing.B) {
	eachWire(b, func(b *testing.B, w Wire, ev Event, secret string) {
		body, _ := w.Body(ev)
		h := make(http.Header, 8)
		w.Header(h, Delivery{Event: ev, N: 1, Body: body, URL: "http://127.0.0.1:9/x", Secret: secret, SignedAt: ev.Created})
	})
}

// BenchmarkWireBody is the body alone of BenchmarkWire: what the engine
// builds once for each event and a client posting a fixed body does not.
func BenchmarkWireBody(b *testing.B) {
	eachWire(b, func(b *testing.B, w Wire, ev Event, _ string) {
		if body, _ := w.Body(ev); len(body) == 0 {
			b.Fatal("no body")
		}
	})
}

// eachWire runs work as a sub-benchmark for each wire format, on a new
// default event of that format at each iteration.
func eachWire(b *testing.B, work func(b *testing.B, w Wire, ev Event, secret string)) {
	at := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	for _, name := range WireNames() {
		w, _ := WireFor(name)
		secret := GenerateSecret(name, 1)
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			seq := 0
			for b.Loop() {
				ev := Event{Seq: seq, Seed: uint64(seq), Type: w.DefaultEventType(), Created: at}
				seq++
				w.NewEvent(&ev)
				work(b, w, ev, secret)
			}
		})
	}
}
