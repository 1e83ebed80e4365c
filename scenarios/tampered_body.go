package scenarios

import "fmt"

// tamperedBody: beside the attempt, a correctly signed request whose body
// was changed after signing: one field's value (an amount raised by one,
// say), or the same JSON re-serialised with different spacing. A handler
// that verifies the raw bytes rejects both; one that verifies a parsed and
// re-serialised body accepts the second. change picks one; without it each
// attack draws one the provider's scheme can detect.
//
//	type: tampered-body
//	change: value   # or spacing
type tamperedBody struct {
	Change string `yaml:"change"`
}

func init() { Register(AttackTamperedBody, func() Kind { return &tamperedBody{} }) }

func (k *tamperedBody) Apply(a *Action, c *Context) {
	at := k.attack()
	if at.Change == "" && c.Rand != nil {
		// Drawn here, so the choice follows the seed; the engine falls
		// back to a value change where spacing means nothing (Twilio).
		at.Change, at.Drawn = []string{ChangeValue, ChangeSpacing}[c.Rand.IntN(2)], true
	}
	a.Attacks = append(a.Attacks, at)
}

func (k *tamperedBody) attack() Attack { return Attack{Type: AttackTamperedBody, Change: k.Change} }

func (k *tamperedBody) Validate() []error {
	switch k.Change {
	case "", ChangeValue, ChangeSpacing:
		return nil
	}
	return []error{fmt.Errorf("change: %q is not a change (valid: %s, %s)", k.Change, ChangeValue, ChangeSpacing)}
}
