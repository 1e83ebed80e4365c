package simulator_test

import (
	"context"
	"io"
	"net/http"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
	"github.com/retrysim/retrysim/simulator"
)

// firstAnswerLost loses the handler's answer to every first attempt, so
// every real delivery is sent again.
func firstAnswerLost(t *testing.T) scenarios.Scenario {
	t.Helper()
	sc, err := scenarios.Decode("first-lost.yaml", []byte("name: first-lost\nfaults:\n  - type: lost-response\n    attempts: [1]\n"))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// realDelivery signs an event of wire as its provider would have, with
// headers of its own that the engine must keep.
func realDelivery(t *testing.T, provider, secret string, seq int) simulator.Incoming {
	t.Helper()
	w, _ := policies.WireFor(provider)
	ev := policies.Event{Seq: seq, Seed: uint64(1000 + seq), Type: w.DefaultEventType(), Created: time.Now()}
	w.NewEvent(&ev)
	body, ctype := w.Body(ev)
	h := http.Header{"Content-Type": {ctype}, "X-Real-Delivery": {"kept"}}
	w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, URL: "http://127.0.0.1/webhooks/" + provider, Secret: secret, SignedAt: time.Now()})
	id, err := w.DedupID(h, body)
	if err != nil {
		t.Fatal(err)
	}
	return simulator.Incoming{ID: id, Type: ev.Type, Body: body, Header: h}
}

// Real deliveries fed to a run while it goes on become its events: each
// keeps its id, body and own headers, is signed afresh on every attempt
// (so a careful handler accepts the retry), and is retried on the policy's
// schedule; the run ends when the deliveries stop and every schedule ended.
func TestIncomingDeliveriesAreRetriedAndResigned(t *testing.T) {
	for _, provider := range []string{"stripe", "github", "slack"} {
		t.Run(provider, func(t *testing.T) {
			secret := policies.GenerateSecret(provider, 7)
			pol := policytest.Lookup(t, provider)
			w := pol.Wire()
			var mu sync.Mutex
			seen := map[string][]http.Header{}
			var refused []error
			h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				body := readAll(t, r)
				id, _ := w.DedupID(r.Header, body)
				mu.Lock()
				defer mu.Unlock()
				if err := w.Verify(r.Header, body, "http://in-process/webhooks/"+provider, secret, time.Now()); err != nil {
					refused = append(refused, err)
					rw.WriteHeader(http.StatusUnauthorized)
					return
				}
				seen[id] = append(seen[id], r.Header.Clone())
			})
			in := make(chan simulator.Incoming, 3)
			var want []string
			firsts := make([]chan simulator.FirstAnswer, 3)
			for i := range 3 {
				d := realDelivery(t, provider, secret, i)
				firsts[i] = make(chan simulator.FirstAnswer, 1)
				d.First = firsts[i]
				want = append(want, d.ID)
				in <- d
			}
			close(in)
			var recs []simulator.Record
			res, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: firstAnswerLost(t), Handler: h, Secret: secret, Incoming: in,
				Sink: func(r *simulator.Record) error { recs = append(recs, *r); return nil },
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(refused) > 0 {
				t.Fatalf("the handler refused %d re-signed attempts: %v", len(refused), refused[0])
			}
			if res.Events != 3 || res.Delivered != 3 {
				t.Fatalf("%d events, %d delivered; want the 3 deliveries, each delivered", res.Events, res.Delivered)
			}
			for i, id := range want {
				hs := seen[id]
				if len(hs) != 2 {
					t.Fatalf("delivery %s reached the handler %d times, want 2 (its first answer was lost)", id, len(hs))
				}
				if hs[0].Get("X-Real-Delivery") != "kept" || hs[1].Get("X-Real-Delivery") != "kept" {
					t.Errorf("delivery %s lost a header of its own: %v", id, hs[1])
				}
				if a := <-firsts[i]; a.HandlerStatus != http.StatusOK || a.Outcome != simulator.LostResponse {
					t.Errorf("delivery %s: first answer %+v, want the handler's 200, lost on the way back", id, a)
				}
			}
			if provider == "slack" {
				h := seen[want[0]]
				if h[0].Get("X-Slack-Retry-Num") != "" || h[1].Get("X-Slack-Retry-Num") != "1" {
					t.Errorf("X-Slack-Retry-Num %q then %q, want none then 1", h[0].Get("X-Slack-Retry-Num"), h[1].Get("X-Slack-Retry-Num"))
				}
			}
			var ids []string
			for _, r := range recs {
				if r.Kind == simulator.KindEvent {
					ids = append(ids, r.EventID)
				}
			}
			if !slices.Equal(ids, want) {
				t.Errorf("event records for %v, want the deliveries in the order they came, %v", ids, want)
			}
		})
	}
}

// A run fed real deliveries waits for them: one that comes in after the
// earlier ones have ended still becomes an event.
func TestIncomingRunWaitsForLateDeliveries(t *testing.T) {
	pol := policytest.Lookup(t, "github")
	secret := "late-secret-123456"
	calls := make(chan struct{}, 10)
	h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { calls <- struct{}{} })
	in := make(chan simulator.Incoming)
	done := make(chan *simulator.Result, 1)
	go func() {
		res, err := simulator.Run(context.Background(), simulator.Config{Policy: pol, Handler: h, Secret: secret, Incoming: in})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	in <- realDelivery(t, "github", secret, 0)
	<-calls // the first event has reached the handler; the run goes on
	in <- realDelivery(t, "github", secret, 1)
	<-calls
	close(in)
	if res := <-done; res == nil || res.Events != 2 || res.Delivered != 2 {
		t.Fatalf("result %+v, want 2 events delivered", res)
	}
}

func readAll(t *testing.T, r *http.Request) []byte {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Error(err)
	}
	return b
}

// A run of real deliveries does not claim the provider's default type for
// them: its run record names none, and each event record gives the type
// its delivery gave ("" for one that gave none), in the results stream as
// in the record.
func TestIncomingEventsKeepTheirTypes(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	secret := policies.GenerateSecret("stripe", 8)
	h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {})
	types := []string{"invoice.paid", "customer.created", ""}
	in := make(chan simulator.Incoming, len(types))
	for i, typ := range types {
		d := realDelivery(t, "stripe", secret, i)
		d.Type = typ
		in <- d
	}
	close(in)
	var recs []simulator.Record
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Handler: h, Secret: secret, Incoming: in,
		Sink: func(r *simulator.Record) error { recs = append(recs, *r); return nil },
	}); err != nil {
		t.Fatal(err)
	}
	dec := simulator.NewRecordDecoder()
	var got []string
	for _, r := range recs {
		line, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var back simulator.Record
		if err := dec.Decode(line, &back); err != nil {
			t.Fatal(err)
		}
		switch r.Kind {
		case simulator.KindRun:
			if r.EventType != "" || back.EventType != "" {
				t.Errorf("the run record names the type %q (read back %q) before any delivery came", r.EventType, back.EventType)
			}
		case simulator.KindEvent:
			if back.Type != r.Type || back.EventType != "" {
				t.Errorf("event record %s read back as type %q, run type %q; want %q", line, back.Type, back.EventType, r.Type)
			}
			got = append(got, r.Type)
		}
	}
	if !slices.Equal(got, types) {
		t.Errorf("event records of types %q, want the deliveries' %q", got, types)
	}
}

// A delivery that came in and whose event never started (the run was
// interrupted while an earlier one was out) ends with its own id and type,
// not the generated ones of an event in its place.
func TestIncomingEventsEndUnstartedWithTheirOwnNames(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	secret := policies.GenerateSecret("stripe", 8)
	started, release := make(chan struct{}, 1), make(chan struct{})
	h := http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		select {
		case started <- struct{}{}:
		default:
		}
		<-release
	})
	types := []string{"invoice.paid", "customer.created", "charge.refunded"}
	in := make(chan simulator.Incoming, len(types))
	var ids []string
	for i, typ := range types {
		d := realDelivery(t, "stripe", secret, i)
		d.Type = typ
		ids = append(ids, d.ID)
		in <- d
	}
	close(in)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var recs []simulator.Record
	done := make(chan error, 1)
	go func() {
		_, err := simulator.Run(ctx, simulator.Config{
			Policy: pol, Handler: h, Secret: secret, Incoming: in, Concurrency: 1,
			Sink: func(r *simulator.Record) error { recs = append(recs, *r); return nil },
		})
		done <- err
	}()
	<-started
	// Every delivery taken in (the engine queues each as it takes it, before
	// it looks at ctx again), the first one's attempt still out.
	for len(in) > 0 {
		runtime.Gosched()
	}
	cancel()
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var gotIDs, gotTypes []string
	for _, r := range recs {
		if r.Kind == simulator.KindEvent {
			gotIDs, gotTypes = append(gotIDs, r.EventID), append(gotTypes, r.Type)
		}
	}
	if !slices.Equal(gotIDs, ids) || !slices.Equal(gotTypes, types) {
		t.Errorf("event records %q of types %q, want the deliveries' %q of %q", gotIDs, gotTypes, ids, types)
	}
}
