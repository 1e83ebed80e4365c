package simulator_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// jsonField reads a dotted path from a JSON body as text.
func jsonField(body []byte, path string) string {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return ""
	}
	for _, k := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// payloadTime parses a payload's event time: Unix seconds or milliseconds,
// or RFC 3339, or GitLab's "2006-01-02 15:04:05 UTC".
func payloadTime(s string) (time.Time, bool) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 1e11 {
			return time.UnixMilli(n), true
		}
		return time.Unix(n, 0), true
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05 UTC"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// arrival is an event's first arrival at the handler, as the handler saw it.
type arrival struct {
	id, object string
	created    time.Time
}

// TestReorderedPairsAreStaleInThePayload: in a run with the out-of-order
// scenario, the pairs the report counts as reordered are exactly the pairs
// a handler sees as reordered from the payloads alone: the same object id,
// and the event with the newer creation time arriving first. So a handler
// that keeps each object's newest creation time can ignore the stale ones.
func TestReorderedPairsAreStaleInThePayload(t *testing.T) {
	sc := scenariotest.Lookup(t, "out-of-order")
	// Each provider's events about one object are sent far enough apart
	// for whole-second timestamps to order them, and close enough for its
	// retries to be overtaken (GitLab does not retry, so never reorders).
	for _, tc := range []struct {
		provider, eventType, object, created string
		over                                 time.Duration
	}{
		{"stripe", "invoice.payment_succeeded", "data.object.customer", "created", 0},
		{"stripe", "customer.subscription.created", "data.object.id", "created", 0},
		{"shopify", "orders/updated", "id", "updated_at", 0},
		{"github", "issues", "issue.id", "issue.updated_at", 0},
		{"slack", "message", "event.channel", "event_time", 10 * time.Minute},
		{"standard-webhooks", "invoice.paid", "data.customer_id", "timestamp", 0},
		{"svix", "user.created", "data.id", "timestamp", 0},
		{"zoom", "meeting.started", "payload.object.id", "event_ts", 0},
		{"discord-events", "ENTITLEMENT_UPDATE", "event.data.user_id", "event.timestamp", 10 * time.Minute},
		{"paypal", "CHECKOUT.ORDER.APPROVED", "resource.id", "create_time", 0},
	} {
		t.Run(tc.provider+"/"+tc.eventType, func(t *testing.T) {
			pol := policytest.Lookup(t, tc.provider)
			var (
				mu       sync.Mutex
				arrivals []arrival
				seen     = map[string]bool{}
			)
			handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				id, err := pol.Wire().DedupID(r.Header, body)
				created, ok := payloadTime(jsonField(body, tc.created))
				object := jsonField(body, tc.object)
				if err != nil || !ok || object == "" {
					t.Errorf("no dedup id (%v), %s or %s in %s", err, tc.object, tc.created, body)
				}
				mu.Lock()
				if !seen[id] {
					seen[id] = true
					arrivals = append(arrivals, arrival{id, object, created})
				}
				mu.Unlock()
				w.WriteHeader(http.StatusOK)
			})
			agg := report.NewAggregator()
			objectOf := map[string]string{} // dedup id -> the workload's object
			_, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: sc, Handler: handler, Events: 24, Over: tc.over, Seed: 9, Concurrency: 1,
				EventType: tc.eventType, Secret: policies.GenerateSecret(pol.Provider, 9),
				Sink: func(r *simulator.Record) error {
					if r.Kind == simulator.KindAttempt && r.Object != "" {
						objectOf[r.EventID] = r.Object
					}
					return agg.Add(r)
				},
			})
			if err != nil {
				t.Fatal(err)
			}

			// The payload's object id and the workload's object name
			// the same groups of events.
			payloadToWorkload, workloadToPayload := map[string]string{}, map[string]string{}
			for _, a := range arrivals {
				o := objectOf[a.id]
				if p, ok := payloadToWorkload[a.object]; ok && p != o {
					t.Fatalf("%s %s names objects %s and %s", tc.object, a.object, p, o)
				}
				if p, ok := workloadToPayload[o]; ok && p != a.object {
					t.Fatalf("object %s carries %s %s and %s", o, tc.object, p, a.object)
				}
				payloadToWorkload[a.object], workloadToPayload[o] = o, a.object
			}

			// Pairs out of order, and the events a handler that keeps
			// each object's newest creation time would ignore.
			pairs, stale := 0, 0
			newest := map[string]time.Time{}
			for i, a := range arrivals {
				for _, b := range arrivals[:i] {
					if b.object == a.object && b.created.After(a.created) {
						pairs++
					}
				}
				if a.created.Before(newest[a.object]) {
					stale++
				} else {
					newest[a.object] = a.created
				}
			}
			runs := agg.Runs()
			if len(runs) != 1 {
				t.Fatalf("%d runs in the report", len(runs))
			}
			if got := runs[0].ReorderedPairs; got != pairs || pairs == 0 {
				t.Fatalf("the report counts %d reordered pairs; the payloads show %d (want the same, and some)", got, pairs)
			}
			if stale == 0 {
				t.Fatalf("%d reordered pairs, but no arrival is older than one already seen", pairs)
			}
			t.Logf("%d events, %d objects, %d reordered pairs, %d stale arrivals a handler can ignore", len(arrivals), len(workloadToPayload), pairs, stale)
		})
	}
}
