package simulator

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestEffectsAnswerIsBounded: an oracle that answers without end is read
// up to its cap and refused, saying so, rather than filling memory.
func TestEffectsAnswerIsBounded(t *testing.T) {
	if raceBuild {
		t.Skip("under the race detector, scanning 64 MiB takes longer than the oracle client's 30s timeout; the cap is tested without it")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"evt_0": 1`))
		chunk := []byte(strings.Repeat(`, "evt_x": 1`, 4096))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	_, err := EffectsURL(srv.URL+"/effects", nil)(context.Background())
	if !errors.Is(err, ErrEffects) || !strings.Contains(err.Error(), "larger than 64 MiB") {
		t.Fatalf("an endless answer: %v", err)
	}
}
