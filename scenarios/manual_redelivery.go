package scenarios

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// manualRedelivery: someone resends an event by hand after the provider's
// schedule for it ended, as a support engineer pressing "Resend" in the
// provider's dashboard days later. The resend comes `after` the event's last
// automatic attempt, and only while the policy's manual_redelivery window
// (measured from the event's first attempt) is still open: a provider with
// no manual resend (or a shorter window) sends nothing extra. The envelope's
// probability and every choose the events resent.
//
//	type: manual-redelivery
//	after: 2d
//	probability: 0.2
type manualRedelivery struct {
	After policies.Duration `yaml:"after"`
}

func init() { Register("manual-redelivery", func() Kind { return &manualRedelivery{} }) }

func (*manualRedelivery) Apply(*Action, *Context) {}

func (*manualRedelivery) envelope() []string { return []string{"probability", "every"} }

func (m *manualRedelivery) redeliverAfter() time.Duration { return m.After.D() }

func (m *manualRedelivery) Validate() []error {
	if m.After <= 0 {
		return []error{fmt.Errorf("after: must be positive, got %s (how long after the last automatic attempt someone resends)", m.After)}
	}
	return nil
}
