package report_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// docsHandler is a webhook handler written as the provider's docs show: it
// verifies the signature, skips a delivery whose key it has stored, and
// otherwise does the work. Its effects oracle counts the work per event
// id (the provider's event id, whatever the handler keys on).
type docsHandler struct {
	verify func(h http.Header, body []byte) bool
	key    func(h http.Header) string // what the handler dedups on
	event  func(h http.Header) string // the event's id, for the oracle

	mu      sync.Mutex
	seen    map[string]bool
	effects map[string]int
}

func (d *docsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r.Method == http.MethodGet {
		_ = json.NewEncoder(w).Encode(d.effects)
		return
	}
	body, _ := io.ReadAll(r.Body)
	if !d.verify(r.Header, body) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if k := d.key(r.Header); !d.seen[k] {
		d.seen[k] = true
		d.effects[d.event(r.Header)]++ // the side effect
	}
	w.WriteHeader(http.StatusOK)
}

const fanOutSecret = "fan-out-secret"

// shopifyVerify is Shopify's "Verify webhooks": base64 HMAC-SHA256 of the
// raw body in X-Shopify-Hmac-Sha256.
func shopifyVerify(h http.Header, body []byte) bool {
	m := hmac.New(sha256.New, []byte(fanOutSecret))
	m.Write(body)
	return hmac.Equal([]byte(h.Get("X-Shopify-Hmac-Sha256")), []byte(base64.StdEncoding.EncodeToString(m.Sum(nil))))
}

// githubVerify is GitHub's "Validating webhook deliveries": sha256= and
// the hex HMAC-SHA256 of the body in X-Hub-Signature-256.
func githubVerify(h http.Header, body []byte) bool {
	m := hmac.New(sha256.New, []byte(fanOutSecret))
	m.Write(body)
	return hmac.Equal([]byte(h.Get("X-Hub-Signature-256")), []byte("sha256="+hex.EncodeToString(m.Sum(nil))))
}

func header(name string) func(http.Header) string {
	return func(h http.Header) string { return h.Get(name) }
}

// The fan-out scenario's duplicates are not retries: a handler keyed on
// the id each subscription's delivery has of its own processes the event
// once per subscription, one keyed on the event's id once; the report says
// which header to key on.
func TestFanOutVerdictNamesTheKey(t *testing.T) {
	sc := scenariotest.Lookup(t, "fan-out")
	for _, tc := range []struct {
		name, policy string
		handler      *docsHandler
		verdict      report.Verdict
		say          []string
	}{
		{"shopify keyed on the webhook id", "shopify-2024",
			&docsHandler{verify: shopifyVerify, key: header("X-Shopify-Webhook-Id"), event: header("X-Shopify-Event-Id")},
			report.NotIdempotent, []string{
				"NOT IDEMPOTENT", "another subscription's delivery of the event, not a retry",
				"each delivery with its own X-Shopify-Webhook-Id header", "Key on the X-Shopify-Event-Id header, the same on every subscription's delivery",
			}},
		{"shopify keyed on the event id", "shopify-2024",
			&docsHandler{verify: shopifyVerify, key: header("X-Shopify-Event-Id"), event: header("X-Shopify-Event-Id")},
			report.Idempotent, []string{"✓ IDEMPOTENT", "Key on the X-Shopify-Event-Id header, which every subscription's delivery of an event shares; not on the X-Shopify-Webhook-Id header"}},
		{"github keyed on hook id and delivery", "github-manual",
			&docsHandler{verify: githubVerify, key: func(h http.Header) string { return h.Get("X-GitHub-Hook-ID") + "/" + h.Get("X-GitHub-Delivery") }, event: header("X-GitHub-Delivery")},
			report.NotIdempotent, []string{"NOT IDEMPOTENT", "each delivery with its own X-GitHub-Hook-ID and X-GitHub-Delivery headers together", "Key on the X-GitHub-Delivery header"}},
		{"github keyed on the delivery", "github-manual",
			&docsHandler{verify: githubVerify, key: header("X-GitHub-Delivery"), event: header("X-GitHub-Delivery")},
			report.Idempotent, []string{"✓ IDEMPOTENT", "Key on the X-GitHub-Delivery header, which every subscription's delivery of an event shares"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pol := policytest.Lookup(t, tc.policy)
			h := tc.handler
			h.seen, h.effects = map[string]bool{}, map[string]int{}
			agg := report.NewAggregator(report.WithTimeline(-1))
			_, err := simulator.Run(context.Background(), simulator.Config{
				Policy: pol, Scenario: sc, Handler: h, Effects: simulator.EffectsFromHandler(h, "/effects"),
				Events: 6, Over: time.Hour, Seed: 3, Secret: fanOutSecret, Sink: agg.Add,
			})
			if err != nil {
				t.Fatal(err)
			}
			runs := agg.Runs()
			if got := runs[0].Verdict(); got != tc.verdict {
				t.Errorf("verdict %v, want %v", got, tc.verdict)
			}
			if runs[0].FanOutArrivals != 6 {
				t.Errorf("%d fan-out arrivals, want 6 (one per event)", runs[0].FanOutArrivals)
			}
			var buf bytes.Buffer
			if err := report.Write(&buf, &report.Report{Runs: runs, Verbose: true}, report.FormatText); err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(buf.String()), " ")
			for _, s := range tc.say {
				if !strings.Contains(text, s) {
					t.Errorf("the report does not say %q:\n%s", s, buf.String())
				}
			}
		})
	}
}

// Under fan-out, a handler that fails one subscription's delivery (chosen
// by its X-Shopify-Webhook-Id) gets that delivery's retries: the report
// counts one fan-out arrival per event (the other subscription's first
// delivery) and the failing delivery's retries as retries of a failed
// answer, not as fan-out.
func TestFanOutRetriesAreRetries(t *testing.T) {
	sc := scenariotest.Lookup(t, "fan-out")
	pol := policytest.Lookup(t, "shopify")
	pol.Disable = nil // the failures would disable the endpoint: retries are what this is about
	failing := func(webhook string) bool { return webhook[len(webhook)-1] < '8' }
	var mu sync.Mutex
	retries := 0 // requests after a failing delivery's first
	seen := map[string]bool{}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		webhook := r.Header.Get("X-Shopify-Webhook-Id")
		mu.Lock()
		if seen[webhook] {
			retries++
		}
		seen[webhook] = true
		mu.Unlock()
		if failing(webhook) {
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	const events = 12
	var recs []simulator.Record
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, Handler: h, Events: events, Over: time.Hour, Seed: 1, RunID: "test", Secret: fanOutSecret,
		Sink: simulator.Collect(&recs),
	}); err != nil {
		t.Fatal(err)
	}
	sums, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := sums[0]
	if retries == 0 {
		t.Fatal("no subscription's delivery was retried (pick another seed)")
	}
	if r.FanOutArrivals != events {
		t.Errorf("%d fan-out arrivals, want %d (one per event)", r.FanOutArrivals, events)
	}
	if got := r.Causes[simulator.HTTPError]; got != retries {
		t.Errorf("%d duplicate arrivals after a failed answer, want the %d retries the handler saw", got, retries)
	}
}
