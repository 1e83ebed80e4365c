package scenarios

// dropRequest: the request never reaches the handler (connection refused,
// DNS failure, a firewall).
type dropRequest struct{}

func init() { Register("drop-request", func() Kind { return &dropRequest{} }) }

func (*dropRequest) Apply(a *Action, _ *Context) { a.Drop = true }
func (*dropRequest) Validate() []error           { return nil }
