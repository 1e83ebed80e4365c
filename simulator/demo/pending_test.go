package demo_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// The queue modes say how much work they still have: GET
// /_retrysim/effects answers {"effects": {…}, "pending": N}, the jobs
// queued and not yet worked, and pending falls to 0 once the worker has
// credited them. The other modes keep the flat map.
func TestQueueModesReportPending(t *testing.T) {
	for _, mode := range []demo.Mode{demo.Queue, demo.QueueUnguarded} {
		t.Run(string(mode), func(t *testing.T) {
			h := newHandler(t, mode, demo.WithWork(time.Hour)) // the worker waits: every job stays queued
			sum, _ := runAgainstNoOracle(t, h, "stripe", scenariotest.Lookup(t, "happy"), 3)
			if sum.HandlerDelivered != 3 {
				t.Fatalf("%d events delivered, want 3", sum.HandlerDelivered)
			}
			raw := getEffects(t, h)
			var wrapped struct {
				Effects map[string]int `json:"effects"`
				Pending *int           `json:"pending"`
			}
			if err := json.Unmarshal(raw, &wrapped); err != nil || wrapped.Pending == nil {
				t.Fatalf("GET %s = %s: want {\"effects\": {…}, \"pending\": N}", demo.EffectsPath, raw)
			}
			if *wrapped.Pending != 3 || len(wrapped.Effects) != 0 {
				t.Errorf("pending %d, effects %v: want 3 jobs pending and nothing credited yet", *wrapped.Pending, wrapped.Effects)
			}
			r, err := oracle.Handler(h, demo.EffectsPath).Read(context.Background())
			if err != nil || !r.HasPending || r.Pending != 3 {
				t.Errorf("the HTTP oracle read %+v, %v: want 3 pending", r, err)
			}
		})
	}
	t.Run("queue, once worked", func(t *testing.T) {
		h := newHandler(t, demo.Queue, demo.WithWork(time.Millisecond))
		runAgainstNoOracle(t, h, "stripe", scenariotest.Lookup(t, "happy"), 2)
		if _, err := h.Effects(context.Background()); err != nil { // waits for the queue to drain
			t.Fatal(err)
		}
		r, err := h.Read(context.Background())
		if err != nil || !r.HasPending || r.Pending != 0 || len(r.Effects) != 2 {
			t.Errorf("read %+v, %v: want 2 events credited and nothing pending", r, err)
		}
	})
	t.Run("naive keeps the flat map", func(t *testing.T) {
		h := newHandler(t, demo.Naive)
		runAgainstNoOracle(t, h, "stripe", scenariotest.Lookup(t, "happy"), 1)
		var flat map[string]int
		if raw := getEffects(t, h); json.Unmarshal(raw, &flat) != nil || len(flat) != 1 {
			t.Errorf("GET %s = %s: want {\"<id>\": 1}", demo.EffectsPath, raw)
		}
	})
}

func getEffects(t *testing.T, h *demo.Handler) []byte {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", demo.EffectsPath, nil))
	if rec.Code != 200 {
		t.Fatalf("GET %s: %d %s", demo.EffectsPath, rec.Code, rec.Body)
	}
	return rec.Body.Bytes()
}
