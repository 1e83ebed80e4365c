package policies

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// signedRequest is one signed delivery as the npm verifiers of
// .ci/typecheck/verify.mjs read it: what a handler receives and the secret
// it holds.
type signedRequest struct {
	URL     string            `json:"url"`
	Secret  string            `json:"secret"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
	// SignedAt is the signature's time, for verifiers that bound its age.
	SignedAt int64 `json:"signed_at"`
}

// signedByNode are the wires whose signature CI also checks with the
// provider's npm package, where no Go module the proxy serves has a
// verifier for it (twilio-node's shared-key validateRequest) or as a second
// opinion (stripe-node's parseEventNotification).
var signedByNode = []string{"twilio-shared-key", "stripe-thin"}

// TestSignedRequestsAsCaptured keeps testdata/signed/<wire>.json, one signed
// delivery per wire of signedByNode, byte for byte (-update rewrites them):
// .ci/typecheck/verify.mjs checks each with the provider's npm verifier.
func TestSignedRequestsAsCaptured(t *testing.T) {
	for _, name := range signedByNode {
		t.Run(name, func(t *testing.T) {
			w, ok := WireFor(name)
			if !ok {
				t.Fatalf("no wire %s", name)
			}
			at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
			ev := capturedEvent(w, w.DefaultEventType())
			body, ctype := w.Body(ev)
			req := signedRequest{URL: "https://example.com/webhooks/" + name + "?tenant=1", Secret: GenerateSecret(name, 42), Body: string(body), SignedAt: at.Unix(),
				Headers: map[string]string{"Content-Type": ctype}}
			h := make(map[string][]string)
			w.Header(h, Delivery{Event: ev, N: 1, Body: body, URL: req.URL, Secret: req.Secret, SignedAt: at})
			for k, v := range h {
				req.Headers[k] = v[0]
			}
			if err := w.Verify(h, body, req.URL, req.Secret, at); err != nil {
				t.Fatalf("retrysim's own check refuses it: %v", err)
			}
			got, err := json.MarshalIndent(req, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			file := filepath.Join("testdata", "signed", name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("no captured request (go test ./policies -run TestSignedRequestsAsCaptured -update): %v", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the signed %s request is not the captured one\n got: %s\nwant: %s", name, got, want)
			}
		})
	}
}
