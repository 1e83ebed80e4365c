package simulator

import "slices"

// Kinds are the record kinds the engine writes, in the order a run's
// stream introduces them.
func Kinds() []string {
	return []string{KindRun, KindHandshake, KindAttempt, KindAttack, KindRestart, KindEvent, KindEffects, KindEnd}
}

// KnownKind reports whether kind is one of Kinds. Readers of a results
// stream skip records of other kinds, which a later version may add.
func KnownKind(kind string) bool { return slices.Contains(Kinds(), kind) }

// Outcomes are every Outcome an attempt record may carry.
func Outcomes() []Outcome {
	return []Outcome{Delivered, HTTPError, Redirect, Timeout, ConnectionFailed, InvalidResponse, LostResponse}
}

// Known reports whether o is one of Outcomes.
func (o Outcome) Known() bool { return slices.Contains(Outcomes(), o) }
