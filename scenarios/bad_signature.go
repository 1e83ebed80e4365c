package scenarios

// badSignature: beside the attempt, a request signed with the wrong secret
// (the right scheme, a key that is not yours), as from an attacker who
// knows your endpoint but not your secret. A handler must answer 4xx and do
// nothing.
//
//	type: bad-signature
type badSignature struct{}

func init() { Register(AttackBadSignature, func() Kind { return &badSignature{} }) }

func (k *badSignature) Apply(a *Action, _ *Context) { applyAttack(a, k) }
func (*badSignature) Validate() []error             { return nil }
func (*badSignature) attack() Attack                { return Attack{Type: AttackBadSignature} }
