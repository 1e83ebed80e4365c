package report

import (
	"github.com/retrysim/retrysim/simulator"
)

// addHandshake keeps the run's handshake record.
func (r *Run) addHandshake(rec *simulator.Record) {
	h := *rec
	r.Handshake = &h
}

// HandshakeFailed reports whether the provider's handshake got an answer it
// does not accept: the endpoint was never enabled.
func (r *Run) HandshakeFailed() bool { return r.Handshake != nil && r.Handshake.HandshakeProblem != "" }
