package simulator_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/simulator"
)

// TestReplaySlackRetryHeaders: send n of a replayed Slack capture stands
// for attempt n of Slack's schedule and carries that attempt's retry
// headers, as run's attempts do: none on the first, then X-Slack-Retry-Num
// 1, 2, 3 with the reason the send before failed, whatever the capture
// itself carried.
func TestReplaySlackRetryHeaders(t *testing.T) {
	pol := policytest.Lookup(t, "slack")
	for _, captured := range []string{"", "1"} {
		c := mustCapture(t, "slack.http")
		if captured != "" {
			c.Header.Set("X-Slack-Retry-Num", captured)
			c.Header.Set("X-Slack-Retry-Reason", "http_timeout")
		}
		var mu sync.Mutex
		var nums, reasons []string
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.Copy(io.Discard, r.Body)
			mu.Lock()
			nums = append(nums, r.Header.Get("X-Slack-Retry-Num"))
			reasons = append(reasons, r.Header.Get("X-Slack-Retry-Reason"))
			mu.Unlock()
			w.WriteHeader(http.StatusInternalServerError)
		})
		if _, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
			Capture: c, Policy: pol, Handler: h, Times: 4, Secret: demoSecret("slack"),
		}); err != nil {
			t.Fatal(err)
		}
		wantNums := []string{"", "1", "2", "3"}
		wantReasons := []string{"", "http_error", "http_error", "http_error"}
		for i := range wantNums {
			if nums[i] != wantNums[i] || reasons[i] != wantReasons[i] {
				t.Errorf("capture with retry num %q: send %d carried X-Slack-Retry-Num %q, reason %q; want %q, %q",
					captured, i+1, nums[i], reasons[i], wantNums[i], wantReasons[i])
			}
		}
	}
}

// TestReplaySlackRetryReasonAfterA2xx: a send after one the handler answered
// 2xx is, to Slack, a retry of a delivery whose answer never reached it in
// time: it carries http_timeout, as run's lost-response fault does, never
// unknown_error; after a failure, that failure's reason.
func TestReplaySlackRetryReasonAfterA2xx(t *testing.T) {
	pol := policytest.Lookup(t, "slack")
	answers := []int{http.StatusOK, http.StatusInternalServerError, http.StatusNoContent, http.StatusOK}
	var mu sync.Mutex
	var nums, reasons []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		nums = append(nums, r.Header.Get("X-Slack-Retry-Num"))
		reasons = append(reasons, r.Header.Get("X-Slack-Retry-Reason"))
		status := answers[len(nums)-1]
		mu.Unlock()
		w.WriteHeader(status)
	})
	if _, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "slack.http"), Policy: pol, Handler: h, Times: len(answers), Secret: demoSecret("slack"),
	}); err != nil {
		t.Fatal(err)
	}
	wantNums := []string{"", "1", "2", "3"}
	wantReasons := []string{"", "http_timeout", "http_error", "http_timeout"}
	if len(nums) != len(wantNums) {
		t.Fatalf("%d sends, want %d", len(nums), len(wantNums))
	}
	for i := range wantNums {
		if nums[i] != wantNums[i] || reasons[i] != wantReasons[i] {
			t.Errorf("send %d (after %v) carried X-Slack-Retry-Num %q, reason %q; want %q, %q",
				i+1, answers[:i], nums[i], reasons[i], wantNums[i], wantReasons[i])
		}
	}
}

// TestReplaySlackRetryReasonAfterARefusedRedirect: a send the handler
// answered with a redirect off this machine, which Slack would follow and
// retrysim does not, is sent again with unknown_error: what Slack would
// have met there is not known, and too_many_redirects is Slack's word for
// more than two redirects.
func TestReplaySlackRetryReasonAfterARefusedRedirect(t *testing.T) {
	var mu sync.Mutex
	var reasons []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		reasons = append(reasons, r.Header.Get("X-Slack-Retry-Reason"))
		mu.Unlock()
		http.Redirect(w, r, "http://192.0.2.1/elsewhere", http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	if _, err := simulator.Replay(context.Background(), simulator.ReplayConfig{
		Capture: mustCapture(t, "slack.http"), Policy: policytest.Lookup(t, "slack"), URL: srv.URL + "/webhooks/slack", Times: 3, Secret: demoSecret("slack"),
	}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"", "unknown_error", "unknown_error"}; !slices.Equal(reasons, want) {
		t.Errorf("the sends carried X-Slack-Retry-Reason %q, want %q", reasons, want)
	}
}
