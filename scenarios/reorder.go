package scenarios

// reorder: events about the same object arrive out of order, as a retry is
// overtaken by a newer event. Every attempt of an event made before the
// next event about the same object was first sent fails to connect, so the
// newer event reaches the handler first and the older one arrives on a
// later retry. Events that are the last about their object are not touched.
// Use the envelope (every, probability) to choose how many events it holds
// back. The report counts the pairs that reached the handler out of order.
//
//	type: reorder
//	every: 2
type reorder struct{}

func init() { Register("reorder", func() Kind { return &reorder{} }) }

func (*reorder) Apply(a *Action, c *Context) {
	if c.Next >= 0 && c.At <= c.Next {
		a.Drop = true
	}
}

func (*reorder) Validate() []error { return nil }

func (*reorder) readsNext() {}
