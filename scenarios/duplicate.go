package scenarios

// duplicate: the provider sends the same delivery twice at the same moment,
// on two connections, so that the two requests overlap in the handler. Slack
// does this when its http_timeout retry fires while the first request is
// still being worked on; at-least-once queues inside providers do it too. It
// breaks dedup that checks, then acts, then records.
//
//	type: duplicate
type duplicate struct{}

func init() { Register("duplicate", func() Kind { return &duplicate{} }) }

func (*duplicate) Apply(a *Action, _ *Context) { a.Duplicate = true }
func (*duplicate) Validate() []error           { return nil }
