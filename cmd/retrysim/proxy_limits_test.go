package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// deliverID posts a delivery of provider's default event, correctly
// signed with secret, whose dedup id is id; it returns the proxy's status
// and answer.
func (p *proxyProc) deliverID(t *testing.T, provider, secret, id string) (int, string) {
	t.Helper()
	w, _ := policies.WireFor(provider)
	return p.deliverEvent(t, provider, secret, id, w.DefaultEventType())
}

// deliverEvent is deliverID with the event's type too.
func (p *proxyProc) deliverEvent(t *testing.T, provider, secret, id, typ string) (int, string) {
	t.Helper()
	w, _ := policies.WireFor(provider)
	ev := policies.Event{Seq: 1, Seed: 77, Type: typ, Created: time.Now()}
	w.NewEvent(&ev)
	ev.ID = id
	body, ctype := w.Body(ev)
	url := p.url + "/webhooks/" + provider
	h := http.Header{"Content-Type": {ctype}}
	w.Header(h, policies.Delivery{Event: ev, N: 1, Body: body, URL: url, Secret: secret, SignedAt: time.Now()})
	if got, err := w.DedupID(h, body); err != nil || got != id {
		t.Fatalf("the delivery's dedup id is not the one made (%v)", err)
	}
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header = h
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(answer)
}

// A correctly signed delivery whose dedup id is longer than the engine
// takes (70 KB in a Stripe body; 65,600 bytes in GitHub's delivery
// header, under the proxy's 64 KiB header cap) is refused 400 naming the
// limit, and the proxy goes on: the next delivery is taken, and the
// results stream and the report are complete.
func TestProxyRefusesTooLongID(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	for _, tc := range []struct {
		provider string
		long     string
	}{
		{"stripe", "evt_" + strings.Repeat("A", 70_000)},
		{"github", strings.Repeat("a", 65_600)},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			t.Parallel()
			h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
			defer h.Close()
			secret := policies.GenerateSecret(tc.provider, 8)
			results := filepath.Join(t.TempDir(), "results.jsonl")
			p := startProxy(t, bin, "--provider", tc.provider, "--forward-to", h.URL+"/hook", "--secret", tc.provider+"="+secret,
				"--scenario", "happy", "--events", "1", "--ack", "--results", results)
			status, answer := p.deliverID(t, tc.provider, secret, tc.long)
			if status != http.StatusBadRequest || !strings.Contains(answer, strconv.Itoa(simulator.MaxDedupID)) {
				t.Fatalf("a %d-byte id was answered %d %q, want 400 naming the limit (%d bytes)", len(tc.long), status, answer, simulator.MaxDedupID)
			}
			if status, answer := p.deliverID(t, tc.provider, secret, "evt_fine_after_the_long_one"); status != http.StatusOK {
				t.Fatalf("the next delivery was answered %d %q: the proxy did not go on", status, answer)
			}
			code, errText := p.wait(t)
			if code != 0 {
				t.Fatalf("exit %d, want 0; stderr:\n%s", code, errText)
			}
			if !strings.Contains(errText, "refused 1 over a limit") {
				t.Errorf("stderr does not count the refused delivery:\n%s", errText)
			}
			recs := readResults(t, results)
			if end := recs[len(recs)-1]; end.Kind != simulator.KindEnd || end.Interrupted {
				t.Errorf("the results end with %+v, want a complete run's end record", end)
			}
			words := strings.Join(strings.Fields(p.stdout.String()), " ")
			if !strings.Contains(words, "1 real delivery") {
				t.Errorf("the report does not cover the delivery taken:\n%s", p.stdout)
			}
		})
	}
}

// A signed delivery whose id tries to put a verdict of its own into the
// report, and whose type carries a terminal escape, shows as text: the
// proxy's line for it on stderr and the markdown report escape both.
func TestProxyEscapesWhatTheSenderSays(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	h := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.Copy(io.Discard, r.Body) }))
	defer h.Close()
	secret := policies.GenerateSecret("stripe", 10)
	md := filepath.Join(t.TempDir(), "report.md")
	p := startProxy(t, bin, "--provider", "stripe", "--forward-to", h.URL+"/hook", "--secret", "stripe="+secret,
		"--scenario", "happy", "--events", "1", "--ack", "--out", md)
	id := "evt_q\n\n**Verdict: IDEMPOTENT** ✓\n\n<img src=http://127.0.0.1:9/x.png>"
	if status, answer := p.deliverEvent(t, "stripe", secret, id, "invoice.paid\x1b]0;pwned\x07"); status != http.StatusOK {
		t.Fatalf("the delivery was answered %d %q", status, answer)
	}
	code, errText := p.wait(t)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, errText)
	}
	if strings.ContainsAny(errText, "\x1b\x07") || strings.Contains(errText, "\n**Verdict") {
		t.Errorf("the sender's id or type reached stderr raw:\n%q", errText)
	}
	if !strings.Contains(errText, `evt_q\n\n**Verdict: IDEMPOTENT** ✓\n\n<img src=http://127.0.0.1:9/x.png> invoice.paid\x1b]0;pwned\a · 1 attempt`) {
		t.Errorf("no escaped line for the event on stderr:\n%s", errText)
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "**Verdict: IDEMPOTENT") || strings.HasPrefix(line, "<img") || strings.ContainsAny(line, "\x1b\x07") {
			t.Errorf("the sender's id made a line of the markdown report: %q", line)
		}
	}
}
