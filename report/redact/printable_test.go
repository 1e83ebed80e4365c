package redact

import "testing"

// Text a handler controls cannot drive a terminal: control characters are
// written as Go escapes; newlines, tabs and other scripts stay.
func TestPrintable(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain text", "plain text"},
		{"two\nlines\tand a tab", "two\nlines\tand a tab"},
		{"Grüße, 世界", "Grüße, 世界"},
		{"500 \x1b]0;pwned\x07", `500 \x1b]0;pwned\a`},
		{"over\rwritten", `over\rwritten`},
		{"c1 \u009b31m", `c1 \u009b31m`},
	} {
		if got := Printable(c.in); got != c.want {
			t.Errorf("Printable(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// A URL's credentials are secrets to redact wherever it is quoted.
func TestURLCredentials(t *testing.T) {
	const u = "http://alice:s3cret-password@127.0.0.1:8080/hook"
	if got := URLSecrets(u); len(got) != 2 || got[0] != "alice" || got[1] != "s3cret-password" {
		t.Errorf("URLSecrets = %q", got)
	}
}
