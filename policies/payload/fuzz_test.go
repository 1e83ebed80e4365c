package payload

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// FuzzParse: no payload file or override makes Parse or Body panic; an
// error names the file; every body of a template that parses is valid
// JSON (form parameters for Twilio), whatever the placeholders pick.
func FuzzParse(f *testing.F) {
	for _, s := range []string{stripeFile, placeholders, `{"a": "${pick 'x' y}", "b": [1, {"c": "$${"}]}`, `{"To": ["a", 1, true, null]}`, "{}", `{"id":"\u0000${seq}"}`} {
		f.Add([]byte(s), "data.object.customer=cus_${seq}", uint8(0))
		f.Add([]byte(s), "a=1", uint8(1))
		f.Add([]byte(s), "To=x", uint8(2))
	}
	wires := []string{"stripe", "github", "twilio", "slack", "paypal", "discord-events"}
	f.Fuzz(func(t *testing.T, data []byte, set string, which uint8) {
		w := wire(t, wires[int(which)%len(wires)])
		var overrides []Override
		if o, err := ParseOverride(set); err == nil {
			overrides = append(overrides, o)
		}
		tpl, err := Parse(w, "mine.json", data, "", overrides)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mine.json") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for seq := range 3 {
			body, _ := tpl.Body(event(w, seq, 1), uint64(seq))
			if w.Name() == "twilio" {
				if _, err := url.ParseQuery(string(body)); err != nil {
					t.Fatalf("form body %q: %v", body, err)
				}
				continue
			}
			if !json.Valid(body) {
				t.Fatalf("body is not JSON:\n%s\nfrom:\n%s", body, data)
			}
			if len(overrides) == 0 && !bytes.Contains(data, []byte("${")) && w.Name() == "github" && !bytes.Equal(body, bytes.TrimPrefix(data, []byte("\ufeff"))) {
				t.Fatalf("a GitHub payload without placeholders changed:\n%s\nfrom:\n%s", body, data)
			}
		}
	})
}

// FuzzParseHeader: a header that parses can be sent: a token name and a
// one-line value.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{"X-Gateway-Token: abc", "a:b:c", "X Y: z", "X: a\r\nb", ":"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		name, value, err := ParseHeader(s)
		if err != nil {
			return
		}
		if name == "" || strings.ContainsAny(name, " \t\r\n:") || strings.ContainsAny(value, "\r\n\x00") {
			t.Fatalf("ParseHeader(%q) = %q, %q", s, name, value)
		}
	})
}
