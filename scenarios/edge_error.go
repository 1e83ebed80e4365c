package scenarios

import "fmt"

// edgeError: a proxy or load balancer in front of the handler answers with
// an error status (502 bad gateway, 503 unavailable, 504 gateway timeout)
// and the request never reaches the handler. With several statuses, each
// attempt draws one of them.
//
//	type: edge-error
//	status: [502, 503, 504]   # or a single status: 503
type edgeError struct {
	Status statusList `yaml:"status"`
}

func init() { Register("edge-error", func() Kind { return &edgeError{} }) }

func (e *edgeError) Apply(a *Action, c *Context) {
	a.EdgeStatus = e.Status[c.Rand.IntN(len(e.Status))]
}

func (e *edgeError) Validate() []error {
	if len(e.Status) == 0 {
		return []error{fmt.Errorf("status: missing (give one status such as 503, or a list such as [502, 503, 504])")}
	}
	var errs []error
	for _, s := range e.Status {
		if s < 400 || s > 599 {
			errs = append(errs, fmt.Errorf("status: %d is not an error status a proxy answers with (400..599)", s))
		}
	}
	return errs
}
