package policies

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// objectField says where a handler finds, in one wire format and event type,
// the id of the thing the event is about and the time the event happened.
// An empty path means the payload has none.
type objectField struct {
	object, created string
}

// objectFields lists every event type each wire format sends. The paths are
// dotted JSON paths into the body ("form:" for a form parameter, "header:"
// for a header).
var objectFields = map[string]map[string]objectField{
	"stripe": {
		"invoice.payment_succeeded":     {"data.object.customer", "created"},
		"invoice.paid":                  {"data.object.customer", "created"},
		"invoice.payment_failed":        {"data.object.customer", "created"},
		"payment_intent.succeeded":      {"data.object.customer", "created"},
		"payment_intent.payment_failed": {"data.object.customer", "created"},
		"charge.succeeded":              {"data.object.customer", "created"},
		"charge.refunded":               {"data.object.customer", "created"},
		"checkout.session.completed":    {"data.object.customer", "created"},
		"customer.subscription.created": {"data.object.id", "created"},
		"customer.subscription.deleted": {"data.object.id", "created"},
		"customer.created":              {"data.object.id", "created"},
	},
	"github": {
		"push":         {"ref", "head_commit.timestamp"},
		"ping":         {"", ""}, // about the hook, of which there is one
		"issues":       {"issue.id", "issue.updated_at"},
		"pull_request": {"pull_request.id", "pull_request.updated_at"},
		"release":      {"release.id", "release.published_at"},
		"workflow_run": {"workflow_run.id", "workflow_run.updated_at"},
	},
	"shopify": {
		"orders/paid":      {"id", "updated_at"},
		"orders/create":    {"id", "updated_at"},
		"orders/updated":   {"id", "updated_at"},
		"orders/cancelled": {"id", "updated_at"},
		"refunds/create":   {"order_id", "created_at"},
		"products/update":  {"id", "updated_at"},
		"customers/create": {"id", "updated_at"},
		"app/uninstalled":  {"", "header:X-Shopify-Triggered-At"}, // about the shop, of which there is one
	},
	"twilio": {
		// A status callback carries no time: its order is MessageStatus's.
		"delivered": {"form:MessageSid", ""}, "queued": {"form:MessageSid", ""}, "sent": {"form:MessageSid", ""},
		"undelivered": {"form:MessageSid", ""}, "failed": {"form:MessageSid", ""}, "read": {"form:MessageSid", ""},
	},
	"slack": {
		"message":               {"event.channel", "event_time"},
		"app_mention":           {"event.channel", "event_time"},
		"reaction_added":        {"event.item.ts", "event_time"},
		"member_joined_channel": {"event.user", "event_time"},
	},
	"discord": {
		"APPLICATION_COMMAND":              {"member.user.id", ""},
		"PING":                             {"", ""},
		"MESSAGE_COMPONENT":                {"member.user.id", ""},
		"APPLICATION_COMMAND_AUTOCOMPLETE": {"member.user.id", ""},
		"MODAL_SUBMIT":                     {"member.user.id", ""},
	},
	"discord-events": {
		"ENTITLEMENT_CREATE": {"event.data.user_id", "event.timestamp"},
		"ENTITLEMENT_UPDATE": {"event.data.user_id", "event.timestamp"},
		"ENTITLEMENT_DELETE": {"event.data.user_id", "event.timestamp"},
	},
	"standard-webhooks": {
		"invoice.paid": {"data.customer_id", "timestamp"},
		"user.created": {"data.id", "timestamp"},
		"order.placed": {"data.id", "timestamp"},
	},
	"standard-webhooks-v1a": {
		"invoice.paid": {"data.customer_id", "timestamp"},
		"user.created": {"data.id", "timestamp"},
		"order.placed": {"data.id", "timestamp"},
	},
	"stripe-thin": {
		"v1.invoice.paid":                         {"related_object.id", "created"},
		"v1.invoice.payment_failed":               {"related_object.id", "created"},
		"v1.payment_intent.succeeded":             {"related_object.id", "created"},
		"v1.customer.created":                     {"related_object.id", "created"},
		"v1.billing.meter.error_report_triggered": {"related_object.id", "created"},
		"v2.core.account.created":                 {"related_object.id", "created"},
		"v2.core.account.updated":                 {"related_object.id", "created"},
	},
	"shopify-events": {
		"orders/paid":      {"id", "updated_at"},
		"orders/create":    {"id", "updated_at"},
		"orders/updated":   {"id", "updated_at"},
		"orders/cancelled": {"id", "updated_at"},
		"refunds/create":   {"order_id", "created_at"},
		"products/update":  {"id", "updated_at"},
		"customers/create": {"id", "updated_at"},
		"app/uninstalled":  {"", "header:Shopify-Triggered-At"},
	},
	"twilio-shared-key": {
		"delivered": {"form:MessageSid", ""}, "queued": {"form:MessageSid", ""}, "sent": {"form:MessageSid", ""},
		"undelivered": {"form:MessageSid", ""}, "failed": {"form:MessageSid", ""}, "read": {"form:MessageSid", ""},
	},
	"svix": {
		"invoice.paid": {"data.customer_id", "timestamp"},
		"user.created": {"data.id", "timestamp"},
	},
	"paypal": {
		"PAYMENT.CAPTURE.COMPLETED":      {"resource.supplementary_data.related_ids.order_id", "create_time"},
		"PAYMENT.CAPTURE.REFUNDED":       {"resource.links.0.href", "create_time"},
		"CHECKOUT.ORDER.APPROVED":        {"resource.id", "create_time"},
		"BILLING.SUBSCRIPTION.ACTIVATED": {"resource.id", "create_time"},
	},
	"zoom": {
		"meeting.started": {"payload.object.id", "event_ts"}, "meeting.ended": {"payload.object.id", "event_ts"},
		"meeting.participant_joined": {"payload.object.id", "event_ts"}, "recording.completed": {"payload.object.id", "event_ts"},
	},
	"gitlab": {
		"push":          {"ref", "commits.0.timestamp"},
		"tag_push":      {"ref", "commits.0.timestamp"},
		"issue":         {"object_attributes.id", "object_attributes.updated_at"},
		"merge_request": {"object_attributes.id", "object_attributes.updated_at"},
		"pipeline":      {"object_attributes.id", "object_attributes.finished_at"},
	},
}

// fieldOf reads path from a request, as text; "" when it is not there.
func fieldOf(t *testing.T, path string, h http.Header, body []byte) string {
	t.Helper()
	if name, ok := strings.CutPrefix(path, "header:"); ok {
		return h.Get(name)
	}
	if name, ok := strings.CutPrefix(path, "form:"); ok {
		form, err := url.ParseQuery(string(body))
		if err != nil {
			t.Fatalf("body is not a form: %v", err)
		}
		return form.Get(name)
	}
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("body is not JSON: %v", err)
	}
	for _, k := range strings.Split(path, ".") {
		switch c := v.(type) {
		case map[string]any:
			v = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(c) {
				return ""
			}
			v = c[i]
		default:
			return ""
		}
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// timeOf parses a payload's time: Unix seconds or milliseconds, or one of
// the text forms the providers use.
func timeOf(s string) (time.Time, error) {
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n > 1e11 {
			return time.UnixMilli(n), nil
		}
		return time.Unix(n, 0), nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05 UTC"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time", s)
}

// objectEvent builds event seq of type typ about object (none when empty)
// and returns its request.
func objectEvent(w Wire, typ, object string, seq int) (http.Header, []byte, Event) {
	ev := Event{Seq: seq, Seed: uint64(seq)*104729 + 3, Type: typ, Object: object,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(seq) * 97 * time.Second)}
	w.NewEvent(&ev)
	body, _ := w.Body(ev)
	h := http.Header{}
	if w.Name() != "paypal" { // its RSA signature is slow, and no object field is in its headers
		w.Header(h, Delivery{Event: ev, N: 1, Body: body, URL: "http://127.0.0.1:9/webhooks/x", Secret: "s", SignedAt: ev.Created})
	}
	return h, body, ev
}

// TestEveryEventTypeNamesItsObject keeps objectFields complete: a new event
// type must say where its object is.
func TestEveryEventTypeNamesItsObject(t *testing.T) {
	for _, name := range WireNames() {
		fields, ok := objectFields[name]
		if !ok {
			t.Errorf("%s: no entry in objectFields", name)
			continue
		}
		for _, typ := range EventTypes(name2wire(name)) {
			if _, ok := fields[typ]; !ok {
				t.Errorf("%s %s: no entry in objectFields", name, typ)
			}
		}
	}
}

func name2wire(name string) Wire { w, _ := WireFor(name); return w }

// TestPayloadsNameTheirObject: events about the same object carry the same
// object id in the payload, events about different objects different ones,
// and every event carries the time it happened; events that name no object
// get an id of their own each.
func TestPayloadsNameTheirObject(t *testing.T) {
	const objects, perObject = 40, 3
	for _, name := range WireNames() {
		w := name2wire(name)
		fields := objectFields[name]
		for _, typ := range slices.Sorted(maps.Keys(fields)) {
			f := fields[typ]
			t.Run(name+"/"+typ, func(t *testing.T) {
				if f.created != "" {
					h, body, ev := objectEvent(w, typ, "obj_0", 7)
					at, err := timeOf(fieldOf(t, f.created, h, body))
					if err != nil || !at.Equal(ev.Created) {
						t.Errorf("%s = %v (%v), want the event's creation time %v", f.created, at, err, ev.Created)
					}
				}
				if f.object == "" {
					return
				}
				owner := map[string]string{} // object id in the payload -> workload object
				for i := range objects * perObject {
					r := NewRand(uint64(i%objects), 0x0b)
					object := fmt.Sprintf("obj_%016x", r.Uint64())
					h, body, _ := objectEvent(w, typ, object, i)
					id := fieldOf(t, f.object, h, body)
					if id == "" {
						t.Fatalf("event %d: no %s in %s", i, f.object, body)
					}
					if prev, seen := owner[id]; seen && prev != object {
						t.Fatalf("%s %q names both %s and %s", f.object, id, prev, object)
					}
					owner[id] = object
				}
				if len(owner) != objects {
					t.Fatalf("%d events about %d objects carry %d distinct %s, want %d", objects*perObject, objects, len(owner), f.object, objects)
				}
				if f.object == "ref" {
					return // without an object, every push is to main
				}
				seen := map[string]bool{}
				for i := range objects {
					h, body, _ := objectEvent(w, typ, "", i)
					seen[fieldOf(t, f.object, h, body)] = true
				}
				if seen[""] && len(seen) == 1 {
					return // the payload names the object only when there is one
				}
				if len(seen) < objects*9/10 {
					t.Errorf("%d events about no object share %s: only %d distinct values", objects, f.object, len(seen))
				}
			})
		}
	}
}

// TestFNV64aIsHashFNV: the objects' ids are drawn from hash/fnv's FNV-1a
// of their names; a different hash would change every payload's ids.
func TestFNV64aIsHashFNV(t *testing.T) {
	for _, s := range []string{"", "obj_0123456789abcdef", "é ü"} {
		h := fnv.New64a()
		h.Write([]byte(s))
		if got, want := fnv64a(s), h.Sum64(); got != want {
			t.Errorf("fnv64a(%q) = %x, want %x", s, got, want)
		}
	}
}
