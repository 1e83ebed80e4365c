package policies_test

import (
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
)

// A handshake that got no answer says so in words a sentence can take
// ("… and it got no answer"), not "it no answer".
func TestHandshakeNoAnswerWords(t *testing.T) {
	w, _ := policies.WireFor("slack")
	hs, ok := policies.HandshakeOf(w, 1, "secret")
	if !ok {
		t.Fatal("slack has no handshake")
	}
	if err := hs.Check(0, nil, nil); err == nil || !strings.HasPrefix(err.Error(), "got no answer") {
		t.Fatalf("a handshake with no answer: %v", err)
	}
}
