package redact

import (
	"bytes"
	"strings"
	"testing"
)

// redacted writes text through s.
func redacted(t *testing.T, s *Set, text string) string {
	t.Helper()
	var buf bytes.Buffer
	w := s.Writer(&buf)
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// TestAddGiven: every value given is redacted, a malformed pair's too;
// a secret too short to redact is noted by provider and length, never its
// value, once per provider, the flag's before the configured one.
func TestAddGiven(t *testing.T) {
	const flagged, malformed, configured = "whsec_FlagSecret_0123", "whsec_NoProviderHere_99", "shpss_ConfiguredSecret_42"
	s := &Set{}
	conf := map[string]string{"shopify": configured, "stripe": "tiny-conf", "github": "ab"}
	notes := s.AddGiven(
		[]string{"stripe=" + flagged[:5], "slack=" + flagged, malformed},
		[]string{"github", "shopify", "stripe"},
		func(p string) (string, bool) { v, ok := conf[p]; return v, ok })
	got := redacted(t, s, strings.Join([]string{flagged, malformed, configured}, " "))
	if got != strings.Join([]string{Marker, Marker, Marker}, " ") {
		t.Errorf("redacted %q", got)
	}
	want := []string{
		"the github secret is 2 characters long: too short to be safe, and too short to redact from the output (under 12 characters it would garble ordinary words); it is used as given",
		"the stripe secret is 5 characters long: too short to be safe, and too short to redact from the output (under 12 characters it would garble ordinary words); it is used as given",
	}
	if strings.Join(notes, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(notes, "\n"), strings.Join(want, "\n"))
	}
	// Without a set, nothing is redacted, and the notes are still given.
	if notes := (*Set)(nil).AddGiven([]string{"stripe=abc"}, nil, nil); len(notes) != 1 {
		t.Errorf("notes %v without a set", notes)
	}
}
