package policies

import (
	"bytes"
	"testing"
	"time"
)

// TestStripeBodyIsEncodingJSONs: the Stripe body written without
// reflection is byte for byte what encoding/json (HTML escaping off) writes
// for the same typed structs, for every event type and many events.
func TestStripeBodyIsEncodingJSONs(t *testing.T) {
	w := stripeWire{}
	for _, typ := range stripeTypes {
		for seq := range 40 {
			ev := Event{Seq: seq, Seed: uint64(seq)*7919 + 3, Type: typ, Created: time.Date(2026, 3, 2, 9, 30, seq, 0, time.UTC)}
			if seq%2 == 0 {
				ev.Object = "customer-" + string(rune('a'+seq%7))
			}
			w.NewEvent(&ev)
			got, _ := w.Body(ev)
			r := Key(ev.Seed, 4, 0)
			reqID, key := "req_"+r.Alnum(14), r.UUID()
			want := marshalBody(stripeEvent{
				ID: ev.ID, Object: "event", APIVersion: stripeVersion, Created: ev.Created.Unix(),
				Data: stripeData{Object: stripeObject(ev)}, PendingWebhooks: 1,
				Request: stripeRequest{ID: &reqID, IdempotencyKey: &key}, Type: ev.Type,
			})
			if !bytes.Equal(got, want) {
				t.Fatalf("%s event %d:\n got %s\nwant %s", typ, seq, got, want)
			}
		}
	}
}

// TestGitHubPushIsEncodingJSONs: likewise for GitHub's push payload.
func TestGitHubPushIsEncodingJSONs(t *testing.T) {
	w := githubWire{}
	for seq := range 40 {
		ev := Event{Seq: seq, Seed: uint64(seq)*104729 + 1, Type: "push", Created: time.Date(2026, 3, 2, 9, 30, seq, 0, time.UTC)}
		if seq%2 == 0 {
			ev.Object = "branch-" + string(rune('a'+seq%5))
		}
		w.NewEvent(&ev)
		got, _ := w.Body(ev)
		if want := marshalBody(githubPayload(ev)); !bytes.Equal(got, want) {
			t.Fatalf("push event %d:\n got %s\nwant %s", seq, got, want)
		}
	}
}

// TestAppendJSONString escapes as encoding/json does with HTML escaping
// off: quotes, backslashes, control characters, U+2028 and U+2029, invalid
// UTF-8; and leaves <, > and & as they are.
func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{
		"", "plain", `a "quoted" \ back`, "tab\tnew\nline\rcr\bbs\fff", "\x00\x01\x1f", "<@U0DEMOBOT> & co",
		"café ☕ 日本", "line\u2028para\u2029", "bad \xff byte", "\xe2\x80", "emoji 🎉",
	} {
		got := appendJSONString(nil, s)
		want := marshalBody(s)
		if !bytes.Equal(got, want) {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}
