package scenarios

// reset: the connection is reset after the request was sent and before the
// answer arrived. The handler was reached and does its work (retrysim lets
// it finish, so the run stays reproducible), but the provider sees a failed
// connection (Slack's retry reason: connection_failed) and delivers again.
// It differs from lost-response in what the provider records: a broken
// connection at once, rather than a timeout.
//
//	type: reset
type reset struct{}

func init() { Register("reset", func() Kind { return &reset{} }) }

func (*reset) Apply(a *Action, _ *Context) { a.Reset = true }
func (*reset) Validate() []error           { return nil }
