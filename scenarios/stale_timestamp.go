package scenarios

// staleTimestamp: beside the attempt, a request whose signature is valid but
// made over a timestamp older than the provider's tolerance (a minute past
// it): a handler that checks the signature but not the timestamp's age
// accepts it. Only schemes that sign a timestamp can catch it (Stripe,
// Slack, Standard Webhooks, Svix, Discord, Zoom); for the others the report
// says the fault does not apply, and why.
//
//	type: stale-timestamp
type staleTimestamp struct{}

func init() { Register(AttackStaleTimestamp, func() Kind { return &staleTimestamp{} }) }

func (k *staleTimestamp) Apply(a *Action, _ *Context) { applyAttack(a, k) }
func (*staleTimestamp) Validate() []error             { return nil }
func (*staleTimestamp) attack() Attack                { return Attack{Type: AttackStaleTimestamp} }
