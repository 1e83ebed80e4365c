package report

import "github.com/retrysim/retrysim/simulator"

// injectedFailure says whether the scenario made the attempt fail: a fault
// was injected into it and it failed the way a fault makes an attempt
// fail, its request kept from the handler (dropped, refused, held in an
// outage, answered by an edge) or its answer lost or cut on the way back.
// An attempt that carried a fault and failed by the handler's own answer
// (a 500 after an added latency) was not made to fail by it; one that
// timed out only because of an added latency is told apart elsewhere
// (ArrivalFacts.InjectedLateArrivals).
func injectedFailure(rec *simulator.Record) bool {
	if rec.Fault == "" || !rec.Outcome.Failed() {
		return false
	}
	return !rec.Reached || rec.Outcome == simulator.LostResponse || rec.Outcome == simulator.ConnectionFailed
}

// Injected is how much of what made the provider send again the scenario
// injected.
type Injected int

const (
	// InjectedNone: no failure behind a resend was injected, or the
	// provider never sent again.
	InjectedNone Injected = iota
	// InjectedSome: some were, and some were real.
	InjectedSome
	// InjectedAll: every one was.
	InjectedAll
)

// ResendsInjected says how much of what made the provider send again the
// scenario injected: the failures before the duplicate arrivals (Causes),
// and, where the provider retried one, the attempts that never reached the
// handler (Unreached). Copies, resends by hand, replays and answers late by
// an added latency are the scenario's faults by what they are; a redirect
// retrysim refused to follow, or one followed to where no connection could
// be made, is the handler's answer, not a fault.
func (r *Summary) ResendsInjected() Injected {
	injected := r.InjectedLateArrivals + r.CopyArrivals + r.ManualArrivals + r.ReplayArrivals
	real := r.RefusedRedirectArrivals + r.UnreachedRedirectArrivals
	for o, n := range r.Causes {
		injected += r.InjectedCauses[o]
		real += n - r.InjectedCauses[o]
	}
	if r.ResentUnreached > 0 {
		for o, n := range r.Unreached {
			injected += r.InjectedUnreached[o]
			real += n - r.InjectedUnreached[o]
		}
	}
	switch {
	case injected == 0:
		return InjectedNone
	case real > 0:
		return InjectedSome
	}
	return InjectedAll
}
