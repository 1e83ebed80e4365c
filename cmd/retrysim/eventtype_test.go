package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// typeRecorder is a handler that notes the event type of every delivery it
// gets, by provider: Stripe's from the body, GitHub's from its header.
type typeRecorder struct {
	mu   sync.Mutex
	seen map[string][]string // provider → distinct types, in arrival order
}

func (h *typeRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	prov, typ := "", ""
	switch {
	case r.Header.Get("X-GitHub-Event") != "":
		prov, typ = "github", r.Header.Get("X-GitHub-Event")
	case r.Header.Get("Stripe-Signature") != "":
		var env struct{ Type string }
		_ = json.Unmarshal(body, &env)
		prov, typ = "stripe", env.Type
	}
	h.mu.Lock()
	if !slices.Contains(h.seen[prov], typ) {
		h.seen[prov] = append(h.seen[prov], typ)
	}
	h.mu.Unlock()
}

// --event-type chooses the event each provider's handler receives: one
// type for one provider, or provider=type for several.
func TestEventTypeReachesHandler(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want map[string][]string
	}{
		{"plain, one provider", []string{"--provider", "stripe", "--event-type", "invoice.paid"},
			map[string][]string{"stripe": {"invoice.paid"}}},
		{"per provider, one flag", []string{"--provider", "stripe,github", "--event-type", "stripe=charge.refunded,github=push"},
			map[string][]string{"stripe": {"charge.refunded"}, "github": {"push"}}},
		{"per provider, repeated; the other keeps its default", []string{"--provider", "stripe,github", "--event-type", "github=release"},
			map[string][]string{"stripe": {"invoice.payment_succeeded"}, "github": {"release"}}},
		{"a wire name covers its variants", []string{"--provider", "stripe-test", "--event-type", "stripe=customer.created"},
			map[string][]string{"stripe": {"customer.created"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := &typeRecorder{seen: map[string][]string{}}
			srv := httptest.NewServer(h)
			defer srv.Close()
			args := append([]string{"run", "--url", srv.URL + "/webhooks", "--scenario", "happy", "--events", "3", "--no-timeline"}, c.args...)
			mustRun(t, nil, args...)
			for prov, want := range c.want {
				if got := h.seen[prov]; !slices.Equal(got, want) {
					t.Errorf("%s handler got event types %v, want %v", prov, got, want)
				}
			}
			if len(h.seen) != len(c.want) {
				t.Errorf("deliveries from %v, want only %v", h.seen, c.want)
			}
		})
	}
}

// A bad --event-type, or a bad connection override in --url, is refused
// before anything is printed or sent, naming the flag.
func TestEventTypeAndURLRefusedFirst(t *testing.T) {
	var hits atomic.Int64
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) })
	srv := httptest.NewServer(h)
	defer srv.Close()
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown type", []string{"--provider", "stripe", "--event-type", "nope"},
			[]string{"retrysim: --event-type: unknown event type \"nope\" for stripe (valid: invoice.payment_succeeded, "}},
		{"plain type, several providers", []string{"--provider", "stripe,github", "--event-type", "invoice.payment_succeeded"},
			[]string{"retrysim: --event-type invoice.payment_succeeded: --provider names 2 policies (stripe, github)", "e.g. --event-type stripe=invoice.payment_succeeded,github=push"}},
		{"provider not in the run", []string{"--provider", "stripe", "--event-type", "github=push"},
			[]string{"--event-type github=push: github is not a provider of this run (--provider: stripe)"}},
		{"wrong provider's type", []string{"--provider", "stripe,github", "--event-type", "github=invoice.paid"},
			[]string{"--event-type: unknown event type \"invoice.paid\" for github (valid: push, "}},
		{"plain and per provider mixed", []string{"--provider", "stripe", "--event-type", "invoice.paid,stripe=invoice.paid"},
			[]string{"--event-type: invoice.paid names no provider"}},
		{"twilio override out of range, unknown key", []string{"--provider", "twilio", "--url", srv.URL + "/sms#rc=9&zz=1"},
			[]string{"retrysim: --url: twilio: bad connection override: rc=9 (retries, 0..5)", "--url: twilio: bad connection override: unknown key \"zz\" in the URL fragment"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"run", "--scenario", "happy", "--events", "1"}, c.args...)
			if !slices.Contains(args, "--url") {
				args = append(args, "--url", srv.URL+"/webhooks")
			}
			code, out, errs := retrysim(t, nil, args...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d\n%s", code, exitBadInput, errs)
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if strings.Contains(errs, "no secret given") || out != "" {
				t.Errorf("printed before refusing:\nstdout: %s\nstderr: %s", out, errs)
			}
			if n := hits.Load(); n > 0 {
				t.Errorf("%d requests sent before refusing", n)
			}
		})
	}
}
