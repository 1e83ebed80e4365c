package scenarios

// replayed: beside the attempt, a valid request is sent and then resent
// byte for byte once the provider's tolerance has passed, as by someone who
// captured it. Schemes that sign a timestamp reject the copy as stale; for
// GitHub, Shopify, Twilio, GitLab and PayPal a replay looks exactly like a
// retry, so the handler may answer 2xx, and only its dedup stops a second
// side effect.
//
// A run takes seconds of wall time, not the tolerance: the copy carries the
// original's body and headers with its signature timestamp moved back by
// the tolerance and a minute, which is what the handler would see had the
// copy come that much later. Schemes without a timestamp get the original's
// bytes unchanged.
//
//	type: replayed
type replayed struct{}

func init() { Register(AttackReplayed, func() Kind { return &replayed{} }) }

func (k *replayed) Apply(a *Action, _ *Context) { applyAttack(a, k) }
func (*replayed) Validate() []error             { return nil }
func (*replayed) attack() Attack                { return Attack{Type: AttackReplayed} }
