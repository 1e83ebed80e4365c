package scenarios

import "fmt"

// dropRequest: the request never reaches the handler. By default the
// connection is refused at once (a stopped process, a DNS name pointing
// nowhere, a firewall that rejects); with `as: timeout` the packets vanish
// and the provider waits out its whole timeout (a firewall that drops).
//
//	type: drop-request
//	as: refused        # or timeout
type dropRequest struct {
	As string `yaml:"as"`
}

func init() { Register("drop-request", func() Kind { return &dropRequest{} }) }

func (d *dropRequest) Apply(a *Action, _ *Context) {
	if d.As == "timeout" {
		a.BlackHole = true
		return
	}
	a.Drop = true
}

func (d *dropRequest) Validate() []error {
	switch d.As {
	case "", "refused", "timeout":
		return nil
	}
	return []error{fmt.Errorf("as: %q is not a way to drop a request (valid: refused, timeout)", d.As)}
}
