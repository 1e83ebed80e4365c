package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// stripeFile is a Stripe event as `stripe events retrieve` prints it, with
// spacing, key order and fields of its own that retrysim knows nothing of.
const stripeFile = `{
  "id": "evt_1QxYzAbCdEfGhIjKlMnOpQrS",
  "object": "event",
  "api_version": "2024-06-20",
  "created":    1733011200,
  "data": {
    "object": {
      "customer": "cus_Known0001",
      "amount_paid": 2500,
      "x_unknown": [1, 2.50, {"nested": null}],
      "description": "caf\u00e9 <b>&</b>"
    }
  },
  "type": "invoice.paid"
}
`

// A body keeps every byte of the file but the event's id and time, which
// are the event's own.
func TestBodyKeepsTheFileByteForByte(t *testing.T) {
	w := wire(t, "stripe")
	tpl := mustParse(t, w, stripeFile)
	if tpl.Type != "invoice.paid" {
		t.Errorf("type %q, want the file's invoice.paid", tpl.Type)
	}
	for seq := range 3 {
		ev := event(w, seq, 1)
		body, ctype := tpl.Body(ev, 1)
		want := strings.Replace(stripeFile, `"evt_1QxYzAbCdEfGhIjKlMnOpQrS"`, strconv.Quote(ev.ID), 1)
		want = strings.Replace(want, "1733011200", strconv.FormatInt(ev.Created.Unix(), 10), 1)
		if string(body) != want {
			t.Fatalf("event %d body:\n%s\nwant:\n%s", seq, body, want)
		}
		if ctype != "application/json; charset=utf-8" {
			t.Errorf("content type %q, want Stripe's own", ctype)
		}
	}
}

// Every event, and every run, gets an id of its own; the file's id is
// never sent.
func TestIDsFreshPerEventAndRun(t *testing.T) {
	w := wire(t, "stripe")
	tpl := mustParse(t, w, stripeFile)
	seen := map[string]bool{}
	for run := uint64(1); run <= 2; run++ {
		for seq := range 50 {
			body, _ := tpl.Body(event(w, seq, run*1_000_003), 1)
			var v struct{ ID string }
			if err := json.Unmarshal(body, &v); err != nil {
				t.Fatal(err)
			}
			if seen[v.ID] || v.ID == "evt_1QxYzAbCdEfGhIjKlMnOpQrS" {
				t.Fatalf("id %s sent twice or taken from the file", v.ID)
			}
			seen[v.ID] = true
		}
	}
}

const placeholders = `{"id": "evt_x", "type": "invoice.paid", "created": 1,
 "n": "${raw seq}", "order": "ord-${seq}", "plan": "${pick basic pro 'team plan'}", "plan2": "${pick a b c d e f}",
 "customer": "cus_${object}", "num": "${raw objectnum}", "at": "${time}", "unix": "${raw unix}",
 "dedup": "${id}", "lit": "$${seq} stays", "q": "${pick 'say \"hi\"'}", "amount": "${raw pick 100 250}"}`

// Placeholders vary a field per event; the same seed gives the same
// bodies, another seed other picks.
func TestPlaceholders(t *testing.T) {
	w := wire(t, "stripe")
	tpl := mustParse(t, w, placeholders)
	type doc struct {
		ID, Order, Plan, Plan2, Customer, At, Dedup, Lit, Q string
		N, Num, Unix, Amount                                json.Number
	}
	bodies := func(seed uint64) []doc {
		var out []doc
		for seq := range 12 {
			b, _ := tpl.Body(event(w, seq, 1), seed)
			var d doc
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			if err := dec.Decode(&d); err != nil {
				t.Fatalf("%v: %s", err, b)
			}
			out = append(out, d)
		}
		return out
	}
	a, again, other := bodies(1), bodies(1), bodies(2)
	differ := false
	for i, d := range a {
		ev := event(w, i, 1)
		if again[i] != d {
			t.Errorf("event %d: the same seed gave %+v then %+v", i, d, again[i])
		}
		differ = differ || other[i].Plan2 != d.Plan2
		switch {
		case d.N.String() != strconv.Itoa(i+1) || d.Order != "ord-"+strconv.Itoa(i+1):
			t.Errorf("event %d: seq %s, order %s", i, d.N, d.Order)
		case d.Plan != "basic" && d.Plan != "pro" && d.Plan != "team plan":
			t.Errorf("event %d: plan %q not from the list", i, d.Plan)
		case d.Customer != "cus_"+ev.Object:
			t.Errorf("event %d: customer %s, want cus_%s", i, d.Customer, ev.Object)
		case d.At != ev.Created.Format("2006-01-02T15:04:05Z") || d.Unix.String() != strconv.FormatInt(ev.Created.Unix(), 10):
			t.Errorf("event %d: time %s / %s", i, d.At, d.Unix)
		case d.Dedup != ev.ID || d.ID != ev.ID:
			t.Errorf("event %d: ${id} %s, id %s, want %s", i, d.Dedup, d.ID, ev.ID)
		case d.Lit != "${seq} stays" || d.Q != `say "hi"`:
			t.Errorf("event %d: literal %q, quoted %q", i, d.Lit, d.Q)
		case d.Amount != "100" && d.Amount != "250":
			t.Errorf("event %d: amount %s", i, d.Amount)
		case len(d.Num.String()) != 13:
			t.Errorf("event %d: objectnum %s is not 13 digits", i, d.Num)
		}
		// Events about one object share its id and number.
		if j := i - 4; j >= 0 && (a[j].Customer != d.Customer || a[j].Num != d.Num) {
			t.Errorf("events %d and %d are about one object but name %s/%s and %s/%s", j, i, a[j].Customer, a[j].Num, d.Customer, d.Num)
		}
	}
	if !differ {
		t.Error("seeds 1 and 2 picked the same for all 12 events")
	}
}

// Every refusal names the file and the line (and the column where the
// problem sits at one place).
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, wire, src string
		typ             string
		set             string
		want            string
	}{
		{"not JSON", "stripe", "{\n  \"id\": \"evt_1\",\n  \"type\": \"x\",,\n}", "", "", "p.json:3:15: invalid payload: not valid JSON"},
		{"trailing text", "github", "{\"a\": 1}\nmore", "", "", "p.json:2:1: invalid payload: not valid JSON"},
		{"not an object", "github", "\n  [1, 2]", "", "", "p.json:2:3: invalid payload: a payload is a JSON object"},
		{"unknown placeholder", "github", "{\n \"a\": \"x ${nope}\"}", "", "", "p.json:2:10: invalid payload: unknown placeholder ${nope} (valid: seq, id, time"},
		{"unclosed placeholder", "github", "{\"a\": \"${seq\"}", "", "", "p.json:1:8: invalid payload: a placeholder ${… has no closing }"},
		{"empty pick", "github", "{\"a\": \"${pick}\"}", "", "", "p.json:1:8: invalid payload: placeholder ${pick} picks from nothing"},
		{"raw not alone", "github", "{\"a\": \"n${raw seq}\"}", "", "", "p.json:1:8: invalid payload: ${raw seq} writes a JSON value in place of the whole string"},
		{"raw text", "github", "{\"a\": \"${raw id}\"}", "", "", "p.json:1:8: invalid payload: placeholder ${raw id}: id is text"},
		{"raw pick not JSON", "github", "{\"a\": \"${raw pick 1 two}\"}", "", "", `p.json:1:8: invalid payload: placeholder ${raw pick 1 two}: "two" is not a JSON value`},
		{"type varies", "stripe", "{\"id\": \"e\", \"type\": \"${pick a b}\"}", "", "", "p.json:1:21: invalid payload: the event type (type) cannot vary"},
		{"type conflict", "stripe", "{\"id\": \"e\",\n \"type\": \"invoice.paid\"}", "charge.refunded", "", "p.json:2:10: invalid payload: the payload's event type is invoice.paid, and the type given is charge.refunded"},
		{"type not a string", "stripe", "{\"id\": \"e\", \"type\": 7}", "", "", "p.json:1:21: invalid payload: the event type (type) is not a string"},
		{"no id", "stripe", "{\"type\": \"invoice.paid\"}", "", "", "p.json:1: invalid payload: stripe puts the event's id in the body's id, and this payload has none"},
		{"zoom", "zoom", "{}", "", "", "p.json: zoom: cannot send a payload of yours"},
		{"override missing", "stripe", stripeFile, "", "data.object.custmer=cus_1", "p.json: bad override data.object.custmer: the payload has no field data.object.custmer (did you mean data.object.customer?)"},
		{"override of the id", "stripe", stripeFile, "", "id=evt_mine", "p.json: bad override id: id holds the event's id"},
		{"override around the id", "discord-events", `{"event": {"data": {"id": "1"}}}`, "", "event.data={}", "p.json: bad override event.data: event.data.id holds the event's id"},
		{"form object", "twilio", "{\"To\": {\"a\": 1}}", "", "", "p.json:1:8: invalid payload: form parameter To is an object"},
		{"too deep", "github", strings.Repeat("{\"a\":", 70) + "1" + strings.Repeat("}", 70), "", "", "invalid payload: nested more than 64 deep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var overrides []Override
			if tc.set != "" {
				overrides = append(overrides, mustOverride(t, tc.set))
			}
			_, err := Parse(wire(t, tc.wire), "p.json", []byte(tc.src), tc.typ, overrides)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant one containing %q", err, tc.want)
			}
			if tc.wire != "zoom" && !errors.Is(err, ErrInvalid) && !errors.Is(err, ErrBadOverride) {
				t.Errorf("%v wraps neither ErrInvalid nor ErrBadOverride", err)
			}
		})
	}
}

// An override replaces a field for every event, as JSON when the value is
// JSON, and may vary per event with placeholders.
func TestOverrides(t *testing.T) {
	w := wire(t, "stripe")
	tpl := mustParse(t, w, stripeFile,
		mustOverride(t, "data.object.customer=cus_Other"),
		mustOverride(t, "stripe:data.object.amount_paid=999"),
		mustOverride(t, `data.object.x_unknown={"k": [true]}`),
		mustOverride(t, "data.object.description=${pick only}"),
		mustOverride(t, "github:ref=refs/heads/x"), // another provider's: not applied
	)
	body, _ := tpl.Body(event(w, 0, 1), 1)
	for _, want := range []string{`"customer": "cus_Other"`, `"amount_paid": 999`, `"x_unknown": {"k": [true]}`, `"description": "only"`, `"api_version": "2024-06-20"`} {
		if !bytes.Contains(body, []byte(want)) {
			t.Errorf("body lacks %s:\n%s", want, body)
		}
	}
}

func TestParseOverride(t *testing.T) {
	for _, tc := range []struct{ in, provider, path, value, err string }{
		{"data.object.customer=cus_123", "", "data.object.customer", `"cus_123"`, ""},
		{`data.object.customer="cus_123"`, "", "data.object.customer", `"cus_123"`, ""},
		{"stripe:data.object.amount=42", "stripe", "data.object.amount", "42", ""},
		{"a.b=<&>", "", "a.b", `"<&>"`, ""},
		{"a=", "", "a", `""`, ""},
		{"line_items.0.price={\"x\":1}", "", "line_items.0.price", `{"x":1}`, ""},
		{"nope:a=1", "", "", "", `unknown provider "nope"`},
		{"a.b", "", "", "", "expected [provider:]path=value"},
		{"a..b=1", "", "", "", "is not keys joined by dots"},
	} {
		o, err := ParseOverride(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseOverride(%q) error %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || o.Provider != tc.provider || o.Path != tc.path || string(o.Value) != tc.value {
			t.Errorf("ParseOverride(%q) = %+v (%s), %v", tc.in, o, o.Value, err)
		}
	}
}

func TestParseHeader(t *testing.T) {
	for _, tc := range []struct{ in, name, value, err string }{
		{"X-Gateway-Token: abc 123", "X-Gateway-Token", "abc 123", ""},
		{"x-env:staging", "X-Env", "staging", ""},
		{"Authorization: Bearer a:b", "Authorization", "Bearer a:b", ""},
		{"X-Empty:", "X-Empty", "", ""},
		{"no colon", "", "", "expected 'Name: value'"},
		{": v", "", "", "expected 'Name: value'"},
		{"X Bad: v", "", "", "a header name is letters"},
		{"X-A: a\r\nX-B: b", "", "", "control character"},
	} {
		n, v, err := ParseHeader(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseHeader(%q) error %v, want %q", tc.in, err, tc.err)
			}
			if err != nil && strings.Contains(tc.in, "a\r\n") && strings.Contains(err.Error(), "a\r\n") {
				t.Errorf("the error repeats the value: %v", err)
			}
			continue
		}
		if err != nil || n != tc.name || v != tc.value {
			t.Errorf("ParseHeader(%q) = %q, %q, %v", tc.in, n, v, err)
		}
	}
}

// Twilio's payload is a JSON object of its parameters, sent form-encoded
// in the file's order; its MessageStatus is the event type.
func TestTwilioForm(t *testing.T) {
	w := wire(t, "twilio")
	tpl := mustParse(t, w, `{"MessageStatus": "failed", "To": "+1415 555", "MessageSid": "SM${objectnum}", "ErrorCode": 30003, "Media": ["a", "b"], "Skip": null}`,
		mustOverride(t, "twilio:To=+14155550100"))
	if tpl.Type != "failed" {
		t.Errorf("type %q, want failed", tpl.Type)
	}
	body, ctype := tpl.Body(event(w, 0, 1), 1)
	want := `MessageStatus=failed&To=%2B14155550100&MessageSid=SM\d{13}&ErrorCode=30003&Media=a&Media=b`
	if !matches(want, string(body)) || ctype != "application/x-www-form-urlencoded" {
		t.Errorf("body %s (%s), want %s", body, ctype, want)
	}
}

// A directory gives a mix of event types, taken in turn in name order;
// for a provider that sends the type in a header, the file's path names it.
func TestLoadDirectory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("shopify/orders/paid.json", `{"id": 820982911946154508, "customer": {"id": 115310627314723954}}`)
	write("shopify/refunds/create.json", `{"id": 509562969, "order_id": 820982911946154508}`)
	write("shopify/notes.txt", "not a payload")
	set, err := Load(wire(t, "shopify"), []string{filepath.Join(dir, "shopify")}, "", []Override{mustOverride(t, "customer.id=42")})
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{set.Type(0), set.Type(1), set.Type(2)}; strings.Join(got, ",") != "orders/paid,refunds/create,orders/paid" {
		t.Errorf("types %v", got)
	}
	w := wire(t, "shopify")
	if b, _ := set.Body(event(w, 0, 1), 1); !bytes.Contains(b, []byte(`"customer": {"id": 42}`)) {
		t.Errorf("the override missed the file that has the field: %s", b)
	}
	if b, _ := set.Body(event(w, 1, 1), 1); string(b) != `{"id": 509562969, "order_id": 820982911946154508}` {
		t.Errorf("refund body %s", b)
	}
	// An override no file has is refused, and so is a type given that a
	// file's name contradicts.
	if _, err := Load(w, []string{filepath.Join(dir, "shopify")}, "", []Override{mustOverride(t, "customer.idd=42")}); err == nil || !strings.Contains(err.Error(), "no field customer.idd in") || !strings.Contains(err.Error(), "did you mean customer.id?") {
		t.Errorf("error %v", err)
	}
	if _, err := Load(w, []string{filepath.Join(dir, "shopify")}, "orders/paid", nil); err == nil || !strings.Contains(err.Error(), "refunds/create") {
		t.Errorf("error %v", err)
	}
	if _, err := Load(w, []string{filepath.Join(dir, "missing.json")}, "", nil); err == nil || !strings.Contains(err.Error(), "missing.json: invalid payload: no such file") {
		t.Errorf("error %v", err)
	}
}

// Overrides without a payload apply to the wire's own bodies.
func TestOverridden(t *testing.T) {
	for _, tc := range []struct{ wire, set, want string }{
		{"stripe", "data.object.customer=cus_Known", `"customer":"cus_Known"`},
		{"twilio", "To=+14155550100", "To=%2B14155550100"},
		{"github", "repository.name=checkout", `"name":"checkout"`},
	} {
		w := wire(t, tc.wire)
		o, err := NewOverridden(w, "", []Override{mustOverride(t, tc.set)})
		if err != nil {
			t.Fatal(err)
		}
		for seq := range 3 {
			ev := event(w, seq, 1)
			b, _ := o.Body(ev, 1)
			plain, _ := w.Body(ev)
			if !bytes.Contains(b, []byte(tc.want)) || bytes.Equal(b, plain) {
				t.Errorf("%s event %d: %s", tc.wire, seq, b)
			}
		}
	}
	if _, err := NewOverridden(wire(t, "stripe"), "", []Override{mustOverride(t, "data.object.nope=1")}); err == nil || !strings.Contains(err.Error(), "no field data.object.nope") {
		t.Errorf("error %v", err)
	}
}
