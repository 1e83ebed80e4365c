package scenarios

// lostResponse: the handler received the request and answered, but the
// answer never got back to the provider, which saw a timeout. The handler did
// the work; the provider will deliver again.
//
//	type: lost-response
type lostResponse struct{}

func init() { Register("lost-response", func() Kind { return &lostResponse{} }) }

func (*lostResponse) Apply(a *Action, _ *Context) { a.LoseResponse = true }
func (*lostResponse) Validate() []error           { return nil }
