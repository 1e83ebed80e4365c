package report

import "fmt"

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
func (r *Summary) handshakeAdvice() []string {
	if !r.HandshakeFailed() {
		return nil
	}
	return []string{fmt.Sprintf("fix this first: answer %s's %s with %s (before checking anything else, as %s's docs show); until then no event reaches your handler", r.Policy, r.Handshake.Handshake, r.Handshake.HandshakeExpect, r.Provider)}
}
