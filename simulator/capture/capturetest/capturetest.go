// Package capturetest holds captured webhook deliveries for tests: the same
// Stripe delivery saved as a raw HTTP request, a HAR file and a curl command
// line, and raw captures of a GitHub and a Slack delivery. Every package's
// tests read them from here rather than from another package's testdata.
package capturetest

import (
	"embed"
	"testing"
)

//go:embed captures
var captures embed.FS

// Bytes returns the capture called name, failing tb if there is none.
func Bytes(tb testing.TB, name string) []byte {
	tb.Helper()
	b, err := captures.ReadFile("captures/" + name)
	if err != nil {
		tb.Fatalf("capturetest: %v", err)
	}
	return b
}
