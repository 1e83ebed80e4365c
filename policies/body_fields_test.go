package policies

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// Every wire says where its body carries an event's id and time, or why a
// user's payload cannot be sent for it: a new wire cannot be forgotten.
func TestBodyFieldsCoverEveryWire(t *testing.T) {
	for _, name := range WireNames() {
		w, _ := WireFor(name)
		_, err := BodyFieldsOf(w)
		_, refused := noUserPayload[name]
		if _, listed := bodyFields[name]; !listed && !refused {
			t.Errorf("wire %s has no entry in bodyFields and no reason in noUserPayload", name)
		}
		if refused != errors.Is(err, ErrNoUserPayload) {
			t.Errorf("BodyFieldsOf(%s) = %v", name, err)
		}
	}
}

// The fields named are where each wire's own synthetic body puts the id,
// the time and the type, so a payload file saved from the provider has
// them in the same place.
func TestBodyFieldsMatchTheWiresBodies(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for name, f := range bodyFields {
		w, _ := WireFor(name)
		ev := Event{Seed: 7, Type: w.DefaultEventType(), Created: at}
		w.NewEvent(&ev)
		body, _ := w.Body(ev)
		if f.Form {
			continue
		}
		doc := decodeJSON(t, body)
		if f.ID != "" && name != "paypal" {
			if got := lookupPath(doc, f.ID); got != ev.ID {
				t.Errorf("%s: %s = %v, want the dedup id %s", name, f.ID, got, ev.ID)
			}
		}
		if f.Time != "" {
			want := string(f.AppendTime(nil, ev))
			if got := encodeJSON(t, lookupPath(doc, f.Time)); got != want {
				t.Errorf("%s: %s = %s, want %s", name, f.Time, got, want)
			}
		}
		if f.Type != "" {
			if got := lookupPath(doc, f.Type); got != ev.Type {
				t.Errorf("%s: %s = %v, want %s", name, f.Type, got, ev.Type)
			}
		}
	}
}

func decodeJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return v
}

func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lookupPath follows a dotted path of object keys in a decoded document.
func lookupPath(doc any, path string) any {
	for _, k := range strings.Split(path, ".") {
		m, ok := doc.(map[string]any)
		if !ok {
			return nil
		}
		doc = m[k]
	}
	return doc
}
