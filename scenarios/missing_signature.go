package scenarios

// missingSignature: beside the attempt, a request with the signature header
// left out (the provider's other headers and a well-formed body kept): a
// handler that verifies only when a signature is present accepts it.
//
//	type: missing-signature
type missingSignature struct{}

func init() { Register(AttackMissingSignature, func() Kind { return &missingSignature{} }) }

func (k *missingSignature) Apply(a *Action, _ *Context) { applyAttack(a, k) }
func (*missingSignature) Validate() []error             { return nil }
func (*missingSignature) attack() Attack                { return Attack{Type: AttackMissingSignature} }
