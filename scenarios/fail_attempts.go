package scenarios

import "fmt"

// failAttempts: the first attempts of every event fail, as during a deploy
// that took a while: attempts 1..first are refused at the connection (the
// new process is not listening yet), or, with status, answered by the load
// balancer in front with that status (the old one is gone, the new one is
// not healthy yet). The handler is not reached either way.
//
//	type: fail-attempts
//	first: 2
//	status: 503   # optional; default: connection refused
type failAttempts struct {
	First  int `yaml:"first"`
	Status int `yaml:"status"`
}

func init() { Register("fail-attempts", func() Kind { return &failAttempts{} }) }

func (f *failAttempts) Apply(a *Action, c *Context) {
	if c.Attempt > f.First {
		return
	}
	if f.Status != 0 {
		a.EdgeStatus = f.Status
		return
	}
	a.Drop = true
}

func (f *failAttempts) Validate() []error {
	var errs []error
	if f.First < 1 || f.First > maxListLen {
		errs = append(errs, fmt.Errorf("first: %d is out of range (1..%d)", f.First, maxListLen))
	}
	if f.Status != 0 && (f.Status < 400 || f.Status > 599) {
		errs = append(errs, fmt.Errorf("status: %d is not an error status (400..599; leave it out for connection refused)", f.Status))
	}
	return errs
}
