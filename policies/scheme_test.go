package policies

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestSchemesDescribeTheirSignatures checks each wire's Scheme against what
// its own Verify does: leaving out the named headers makes a request fail,
// a request signed just past the tolerance is rejected and one signed well
// within it is accepted, and a scheme without a tolerance accepts an old
// signature (so only dedup can stop a replay); and against what its Header
// writes (checkChangingHeaders).
func TestSchemesDescribeTheirSignatures(t *testing.T) {
	want := map[string]bool{ // the schemes whose documented verifiers bound a signed timestamp
		"stripe": true, "stripe-thin": true, "slack": true, "standard-webhooks": true, "standard-webhooks-v1a": true, "svix": true,
	}
	// Discord and Zoom sign a timestamp but document no bound, and their
	// libraries check none: bounding it is advice.
	advised := map[string]bool{"discord": true, "discord-events": true, "zoom": true}
	now := time.Now()
	for _, name := range WireNames() {
		t.Run(name, func(t *testing.T) {
			w, _ := WireFor(name)
			s, ok := SchemeOf(w)
			if !ok {
				t.Fatal("the wire format describes no signature scheme")
			}
			if len(s.Headers) == 0 {
				t.Fatal("no signature headers named")
			}
			if got := s.Tolerance > 0; got != want[name] {
				t.Fatalf("tolerance %s; want a tolerance: %t", s.Tolerance, want[name])
			}
			if got := s.AdvisedTolerance > 0; got != advised[name] {
				t.Fatalf("advised tolerance %s; want one: %t", s.AdvisedTolerance, advised[name])
			}
			secret := GenerateSecret(name, 9)
			target := "http://127.0.0.1:9/webhooks/x"

			h, body, _ := deliver(w, 2, w.DefaultEventType(), 1, secret, now)
			for _, hd := range s.Headers {
				if h.Get(hd) == "" {
					t.Fatalf("the request carries no %s", hd)
				}
				h.Del(hd)
			}
			if err := w.Verify(h, body, target, secret, now); !errors.Is(err, ErrBadSignature) {
				t.Fatalf("without %v: %v, want ErrBadSignature", s.Headers, err)
			}

			old := now.Add(-time.Hour)
			if s.Tolerance > 0 {
				old = now.Add(-s.Tolerance - time.Minute)
				h, body, _ = deliver(w, 2, w.DefaultEventType(), 1, secret, now.Add(-s.Tolerance+time.Minute))
				if err := w.Verify(h, body, target, secret, now); err != nil {
					t.Fatalf("signed a minute inside the %s tolerance: %v", s.Tolerance, err)
				}
			}
			h, body, _ = deliver(w, 2, w.DefaultEventType(), 1, secret, old)
			err := w.Verify(h, body, target, secret, now)
			if s.Tolerance > 0 && !errors.Is(err, ErrBadSignature) {
				t.Fatalf("signed a minute past the %s tolerance: %v, want ErrBadSignature", s.Tolerance, err)
			}
			if s.Tolerance == 0 && err != nil {
				t.Fatalf("no tolerance, yet an hour-old signature fails: %v", err)
			}
			checkChangingHeaders(t, w, s)
		})
	}
}

// TestSignatureProbeRule: Discord's interactions policy probes with an
// invalid signature and expects 401; a probe must expect a 4xx.
func TestSignatureProbeRule(t *testing.T) {
	p, err := Lookup("discord")
	if err != nil {
		t.Fatal(err)
	}
	if p.SignatureProbe == nil || p.SignatureProbe.Expect != 401 {
		t.Fatalf("discord's probe %+v, want one expecting 401", p.SignatureProbe)
	}
	if e, _ := Lookup("discord-events"); e.SignatureProbe != nil {
		t.Error("discord-events probes: only the interactions endpoint is documented as probed")
	}
	src := "name: x\nprovider: discord\nschedule: {delays: []}\ntimeout: 3s\nsignature_probe: {expect: 200}\n"
	if _, err := Decode("x.yaml", []byte(src)); !errors.Is(err, ErrInvalidPolicy) || !strings.Contains(err.Error(), "signature_probe.expect must be a 4xx status (Discord: 401), got 200") {
		t.Errorf("a probe expecting 200: %v", err)
	}
}
