package simulator

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/scenarios"
)

func TestTamper(t *testing.T) {
	always := func([]byte) bool { return true }
	noID := func(id string) func([]byte) bool {
		return func(b []byte) bool {
			var v struct {
				ID string `json:"id"`
			}
			return json.Unmarshal(b, &v) == nil && v.ID == id
		}
	}
	cases := []struct {
		name, body, ctype, change string
		keeps                     func([]byte) bool
		want, detail              string
	}{
		{"an amount first", `{"id":"evt_1","n":7,"data":{"amount_due":1299}}`, "application/json", scenarios.ChangeValue, always,
			`{"id":"evt_1","n":7,"data":{"amount_due":1290}}`, `"amount_due" changed from 1299 to 1290 after signing`},
		{"a number that is no id", `{"id":5,"user_id":6,"count":9}`, "application/json", scenarios.ChangeValue, always,
			`{"id":5,"user_id":6,"count":0}`, `"count" changed from 9 to 0 after signing`},
		{"a string when no number", `{"id":"evt_1","text":"ok"}`, "application/json", scenarios.ChangeValue, always,
			`{"id":"evt_1","text":"ol"}`, `"text" changed from "ok" to "ol" after signing`},
		{"never the dedup id", `{"id":"evt_1"}`, "application/json", scenarios.ChangeValue, noID("evt_1"), "", ""},
		{"the dedup id kept, another value changed", `{"id":"evt_1","ok":true,"list":["az"]}`, "application/json", scenarios.ChangeValue, noID("evt_1"),
			`{"id":"evt_1","ok":true,"list":["aa"]}`, `a value in an array changed from "az" to "aa" after signing`},
		{"spacing", `{"a":[1,2],"b":{"c":"d"}}`, "application/json", scenarios.ChangeSpacing, always,
			"{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": \"d\"\n  }\n}", "the same JSON re-serialised with two-space indentation after signing"},
		{"a form value ending in a digit", "Status=sent&To=%2B14155550199", "application/x-www-form-urlencoded", scenarios.ChangeSpacing, always,
			"Status=sent&To=%2B14155550190", "form parameter To changed after signing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, detail, ok := tamper([]byte(tc.body), tc.ctype, tc.change, tc.keeps)
			if tc.want == "" {
				if ok {
					t.Fatalf("changed to %s, want no change possible", got)
				}
				return
			}
			if !ok || string(got) != tc.want || detail != tc.detail {
				t.Fatalf("got %q, %q, %t\nwant %q, %q", got, detail, ok, tc.want, tc.detail)
			}
			if strings.HasPrefix(tc.ctype, "application/json") && !json.Valid(got) {
				t.Errorf("the changed body is not valid JSON: %s", got)
			}
			if bytes.Equal(got, []byte(tc.body)) {
				t.Error("nothing changed")
			}
		})
	}
}

func FuzzTamper(f *testing.F) {
	f.Add([]byte(`{"id":"evt_1","amount":100,"s":"x\\n\u00e9"}`), false)
	f.Add([]byte(`[1,"a",{"b":[true,null,2.5e3]}]`), true)
	f.Fuzz(func(t *testing.T, body []byte, spacing bool) {
		if !json.Valid(body) {
			return
		}
		change := scenarios.ChangeValue
		if spacing {
			change = scenarios.ChangeSpacing
		}
		got, _, ok := tamper(body, "application/json", change, func([]byte) bool { return true })
		if ok && (!json.Valid(got) || bytes.Equal(got, body)) {
			t.Fatalf("tamper(%q) = %q: not valid JSON, or unchanged", body, got)
		}
	})
}
