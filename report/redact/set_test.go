package redact

import (
	"bytes"
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
)

func TestRedactWriter(t *testing.T) {
	const secret = `whsec_<sec"ret>&/+=`
	cases := []struct {
		name   string
		writes []string
		want   string
	}{
		{"no secret", []string{"hello ", "world"}, "hello world"},
		{"whole secret in one write", []string{"key=" + secret + " end"}, "key=[REDACTED] end"},
		{"secret split across writes", []string{"key=whsec_<s", `ec"ret>&/+= end`}, "key=[REDACTED] end"},
		{"secret one byte a write", strings.Split("a"+secret+"b", ""), "a[REDACTED]b"},
		{"secret at the very end", []string{"x", secret}, "x[REDACTED]"},
		{"prefix of the secret only", []string{"whsec_<se", "cond"}, "whsec_<second"},
		{"prefix at the end, flushed", []string{"tail whsec_"}, "tail whsec_"},
		{"twice", []string{secret + secret}, "[REDACTED][REDACTED]"},
		{"JSON-escaped", []string{`{"t":"` + `whsec_\u003csec\"ret\u003e\u0026/+=` + `"}`}, `{"t":"[REDACTED]"}`},
		{"JSON-escaped without HTML escapes", []string{`"whsec_<sec\"ret>&/+="`}, `"[REDACTED]"`},
		{"Go-quoted", []string{`"whsec_<sec\"ret>&/+="`}, `"[REDACTED]"`},
		{"URL query-escaped", []string{"?k=" + url.QueryEscape(secret)}, "?k=[REDACTED]"},
		{"URL path-escaped", []string{"/" + url.PathEscape(secret)}, "/[REDACTED]"},
		{"URL userinfo-escaped", []string{url.UserPassword("u", secret).String() + "@"}, "u:[REDACTED]@"},
		{"markdown as the report escapes", []string{report.EscapeMarkdown(secret)}, "[REDACTED]"},
		{"XML-escaped", []string{`whsec_&lt;sec&#34;ret&gt;&amp;/+=`}, "[REDACTED]"},
		{"HTML-escaped", []string{`whsec_&lt;sec&#34;ret&gt;&amp;/+=` + " " + html.EscapeString(secret)}, "[REDACTED] [REDACTED]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sec := &Set{}
			sec.Add(secret, "abc") // too short to redact
			var out bytes.Buffer
			w := sec.Writer(&out)
			for _, s := range tc.writes {
				if n, err := w.Write([]byte(s)); err != nil || n != len(s) {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if out.String() != tc.want {
				t.Fatalf("wrote %q, want %q", out.String(), tc.want)
			}
		})
	}
}
