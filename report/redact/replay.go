package redact

import "github.com/retrysim/retrysim/simulator"

// Replay makes a replay's result fit to show, in place: a password in
// the target URL's userinfo is masked (simulator.DisplayURL; the sends carried it),
// and the text the handler controls, the oracle's error and each send's,
// has its control characters escaped (Printable).
func Replay(res *simulator.ReplayResult) {
	res.Target = simulator.DisplayURL(res.Target)
	res.EffectsError = Printable(res.EffectsError)
	for i := range res.Sends {
		res.Sends[i].Error = Printable(res.Sends[i].Error)
	}
}
