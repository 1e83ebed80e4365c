package policies

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestStandardV1aMatchesTheReferenceVector signs the Standard Webhooks Go
// library's own v1a test vector (TestAsymmetricWebhookSign in
// libraries/go/webhook_asymmetric_test.go): the same key, id, timestamp and
// payload give the library's signature byte for byte, with or without the
// whsk_ prefix. The library's v1a code is not in a release the Go module
// proxy serves, so its vector stands in for its verifier.
func TestStandardV1aMatchesTheReferenceVector(t *testing.T) {
	const (
		key  = "VEVTVFNJR05JTkdLRVlET05PVFVTRVRISVNGT1JBTlk="
		id   = "msg_p5jXN8AQM9LWM0D4loKWxJek"
		ts   = "1614265330"
		want = "v1a,tQ9V2XOqn7jL/DQenEFpqIugdBVtiMmER5mhSkXBNwM0mkATuDe6KYYUuxqtaiHeYGb7KaaBRdM5WqyeFiL8Ag=="
	)
	body := []byte(`{"test": 2432232314}`)
	for _, secret := range []string{key, "whsk_" + key} {
		if got := standardV1aSign(secret, id, ts, body); got != want {
			t.Errorf("secret %q: signature %s, want the library's %s", secret, got, want)
		}
	}
	w, _ := WireFor("standard-webhooks-v1a")
	h := http.Header{"Webhook-Id": {id}, "Webhook-Timestamp": {ts}, "Webhook-Signature": {"v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= " + want}}
	if err := w.Verify(h, body, "", key, time.Unix(1614265330, 0)); err != nil {
		t.Errorf("the library's signature among others: %v", err)
	}
	if err := w.Verify(h, []byte(`{"test": 2432232315}`), "", key, time.Unix(1614265330, 0)); !errors.Is(err, ErrBadSignature) {
		t.Errorf("a changed body: %v, want ErrBadSignature", err)
	}
}

// TestStandardV1aKeys: the secret is whsk_ and a 32-byte seed, the key a
// handler is given is whpk_ and the public key, and a v1 (HMAC) signature
// made with the same secret does not pass for v1a.
func TestStandardV1aKeys(t *testing.T) {
	secret := GenerateSecret("standard-webhooks-v1a", 5)
	if err := CheckSecret("standard-webhooks-v1a", secret); err != nil || !strings.HasPrefix(secret, "whsk_") {
		t.Fatalf("secret %q: %v", secret, err)
	}
	if err := CheckSecret("standard-webhooks-v1a", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"); err == nil {
		t.Error("a whsec_ secret passed for v1a")
	}
	pub, ok := PublicKey("standard-webhooks-v1a", secret)
	if !ok || !strings.HasPrefix(pub, "whpk_") || len(pub) != len("whpk_")+44 {
		t.Errorf("public key %q, want whpk_ and 44 characters of base64", pub)
	}
	w, _ := WireFor("standard-webhooks-v1a")
	v1, _ := WireFor("standard-webhooks")
	now := time.Now()
	h, body, _ := deliver(w, 1, w.DefaultEventType(), 1, secret, now)
	if !strings.HasPrefix(h.Get("webhook-signature"), "v1a,") {
		t.Fatalf("webhook-signature %q is not v1a", h.Get("webhook-signature"))
	}
	if err := w.Verify(h, body, "", secret, now); err != nil {
		t.Fatal(err)
	}
	h1, body1, _ := deliver(v1, 1, w.DefaultEventType(), 1, secret, now)
	if err := w.Verify(h1, body1, "", secret, now); !errors.Is(err, ErrBadSignature) {
		t.Errorf("a v1 signature passed the v1a check: %v", err)
	}
}
