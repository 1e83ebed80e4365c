package simulator

import (
	"context"
	"net/http"

	"github.com/retrysim/retrysim/simulator/oracle"
)

// ErrEffects is returned, wrapped, when an effects oracle does not answer
// {"<dedup id>": <times processed>} (or, for a database, rows of
// (id, times)).
var ErrEffects = oracle.ErrOracle

// EffectsError is an effects oracle that did not answer as expected:
// Problem says what was wrong, Reason what kind of problem it was. It
// matches ErrEffects (and Err, the error behind it, if any).
type EffectsError = oracle.Error

// Read calls f: an EffectsFunc is an oracle that reports no pending work.
func (f EffectsFunc) Read(ctx context.Context) (oracle.Reading, error) {
	return oracle.Func(f).Read(ctx)
}

// EffectsOf is o as an EffectsFunc, which drops the pending work o may
// report (replay reads its oracle this way).
func EffectsOf(o oracle.Oracle) EffectsFunc {
	return func(ctx context.Context) (map[string]int, error) {
		r, err := o.Read(ctx)
		return r.Effects, err
	}
}

// EffectsURL is the effects oracle of a handler that serves its side effects
// as JSON, {"<dedup id>": <times processed>} (or {"effects": {…},
// "pending": N}, whose pending count it drops: give Config.Oracle
// oracle.HTTP to use it), at url: each call GETs it with client. A nil
// client connects only to loopback addresses (as the engine does without
// Config.AllowRemote); pass a client of your own to reach another machine.
func EffectsURL(url string, client *http.Client) EffectsFunc {
	return EffectsOf(OracleURL(url, client))
}

// OracleURL is EffectsURL as an oracle.Oracle, which keeps the pending
// work the handler reports: for Config.Oracle.
func OracleURL(url string, client *http.Client) oracle.Oracle {
	if client == nil {
		return OracleAt(url, false)
	}
	return oracle.HTTP(url, client)
}

// EffectsFromHandler is the effects oracle of an in-process http.Handler
// that serves its side effects at path: each call sends it a GET through
// ServeHTTP, with no socket.
func EffectsFromHandler(h http.Handler, path string) EffectsFunc {
	return EffectsOf(oracle.Handler(h, path))
}
