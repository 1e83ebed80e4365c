package simulator

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
)

// TestInProcessBodyIsCapped: an in-process handler that writes a huge answer
// has at most maxBody of it kept, so it cannot fill memory.
func TestInProcessBodyIsCapped(t *testing.T) {
	cases := []struct {
		name   string
		writes []int
		want   int
	}{
		{"small answer kept whole", []int{10}, 10},
		{"exactly the cap", []int{maxBody}, maxBody},
		{"one write past the cap", []int{maxBody + 1}, maxBody},
		{"many writes past the cap", []int{1 << 20, 1 << 20, 5, 1 << 20}, maxBody},
		{"writes straddling the cap", []int{maxBody - 3, 10, 10}, maxBody},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				for i, n := range tc.writes {
					var err error
					if i%2 == 0 {
						_, err = w.Write([]byte(strings.Repeat("x", n)))
					} else {
						_, err = io.WriteString(w, strings.Repeat("y", n))
					}
					if err != nil {
						t.Errorf("write %d: %v", i, err)
					}
				}
			})
			req, err := http.NewRequest(http.MethodPost, "http://in-process/webhooks", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := (&handlerTransport{h: h}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if len(body) != tc.want || resp.StatusCode != http.StatusOK {
				t.Fatalf("kept %d bytes with status %d, want %d with 200", len(body), resp.StatusCode, tc.want)
			}
		})
	}
}

// TestInProcessPath: an in-process handler routed like the URL form
// (POST /webhooks/<provider>) gets every delivery, and HandlerPath sends
// them elsewhere; a mux answers 404 to any other path.
func TestInProcessPath(t *testing.T) {
	for _, tc := range []struct {
		name, route, path string
	}{
		{"default: /webhooks/<provider>", "POST /webhooks/stripe", ""},
		{"HandlerPath", "POST /hooks/payments", "/hooks/payments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc(tc.route, func(http.ResponseWriter, *http.Request) {})
			var recs []Record
			res, err := Run(t.Context(), Config{
				Policy: policytest.Lookup(t, "stripe"), Handler: mux, HandlerPath: tc.path, Events: 5, Sink: Collect(&recs),
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Delivered != 5 || res.Attempts != 5 {
				t.Errorf("%d of 5 events delivered in %d attempts, want all at the first attempt", res.Delivered, res.Attempts)
			}
			for _, r := range recs {
				if r.Kind == KindAttempt && r.Status == http.StatusNotFound {
					t.Fatalf("attempt %d of %s answered 404: the request did not go to %s", r.Attempt, r.EventID, tc.route)
				}
			}
		})
	}
}
