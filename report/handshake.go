package report

import (
	"github.com/retrysim/retrysim/simulator"
)

// addHandshake keeps the run's handshake record.
func (r *runAgg) addHandshake(rec *simulator.Record) {
	h := *rec
	r.Handshake = &h
}

// HandshakeFailed reports whether the provider's handshake got an answer it
// does not accept: the endpoint was never enabled.
func (r *Summary) HandshakeFailed() bool {
	return r.Handshake != nil && r.Handshake.HandshakeProblem != ""
}
