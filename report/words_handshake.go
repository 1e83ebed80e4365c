package report

import (
	"fmt"

	"github.com/retrysim/retrysim/simulator"
)

// handshakeLine says how the endpoint answered the provider's handshake;
// "" when none was sent.
func (r *Summary) handshakeLine() string {
	h := r.Handshake
	if h == nil {
		return ""
	}
	if h.HandshakeProblem == "" {
		return fmt.Sprintf("handshake: %s sent %s when the endpoint was set up, and it was answered as %s expects ✓", r.Policy, h.Handshake, r.Policy)
	}
	return fmt.Sprintf("HANDSHAKE FAILED: %s sent %s when the endpoint was set up and it %s; %s expects %s, and sends no event to an endpoint that fails it", r.Policy, h.Handshake, h.HandshakeProblem, r.Policy, h.HandshakeExpect)
}

// handshakeAdvice is the first thing to fix when the handshake failed.
// A handshake refused 400, 401 or 403 was most likely refused by the
// handler's signature check: its secret is not the one retrysim signs
// with.
func (w words) handshakeAdvice(r *Summary) []string {
	if !r.HandshakeFailed() {
		return nil
	}
	s := fmt.Sprintf("fix this first: answer %s's %s with %s (before checking anything else, as %s's docs show); until then no event reaches your handler", r.Policy, r.Handshake.Handshake, r.Handshake.HandshakeExpect, r.Provider)
	switch r.Handshake.HandlerStatus {
	case 400, 401, 403:
		s += fmt.Sprintf(". It answered %d, as a handler does when the signature does not verify: check that it verifies with the secret retrysim signs with (%s)", r.Handshake.HandlerStatus, w.of(simulator.SettingSecret))
	}
	return []string{s}
}
