package scenarios

// The signature attacks are faults that send an extra request beside an
// attempt: a forgery, a tampered copy, an unsigned or stale request, or a
// replay. The attempt itself goes as it would have; the attack request is
// about an event of its own (a fresh dedup id the provider never sends), so
// any side effect it causes is known to be the attack's. A handler must
// answer every one with a 4xx and act on none; the engine sends them and
// the report judges the answers (the signature_check verdict).

// Attack types, as scenarios name them.
const (
	AttackBadSignature     = "bad-signature"
	AttackTamperedBody     = "tampered-body"
	AttackMissingSignature = "missing-signature"
	AttackStaleTimestamp   = "stale-timestamp"
	AttackReplayed         = "replayed"
)

// Ways a tampered-body attack changes the body.
const (
	// ChangeValue changes one field's value.
	ChangeValue = "value"
	// ChangeSpacing re-serialises the same JSON with different spacing.
	ChangeSpacing = "spacing"
)

// Attack is one attack request to send beside an attempt.
type Attack struct {
	// Type is the attack's fault type (AttackBadSignature, ...).
	Type string
	// Change is how a tampered-body attack changes the body: ChangeValue or
	// ChangeSpacing ("" in Scenario.Attacks when each attack draws one).
	Change string
	// Drawn says Change was drawn because the fault named none: where it
	// means nothing (spacing, for a scheme that signs parameters) the engine
	// makes the other change instead.
	Drawn bool
}

// Name is the attack as reports name it: the type, and for a tampered body
// how it was changed ("tampered-body (spacing)").
func (a Attack) Name() string {
	if a.Change == "" {
		return a.Type
	}
	return a.Type + " (" + a.Change + ")"
}

// attacker is implemented by the attack kinds.
type attacker interface {
	attack() Attack
}

// applyAttack adds the kind's attack to the action.
func applyAttack(a *Action, k attacker) { a.Attacks = append(a.Attacks, k.attack()) }

// Attacks lists the attacks the scenario can send, in scenario order and
// without repeats, so the engine can say before the run which of them the
// provider's signature scheme makes pointless.
func (s *Scenario) Attacks() []Attack {
	var out []Attack
	for i := range s.Faults {
		k, ok := s.Faults[i].Kind.(attacker)
		if !ok {
			continue
		}
		a := k.attack()
		seen := false
		for _, b := range out {
			seen = seen || b == a
		}
		if !seen {
			out = append(out, a)
		}
	}
	return out
}
