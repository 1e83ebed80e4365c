package scenarios

import (
	"fmt"

	"github.com/retrysim/retrysim/policies"
)

// fanOut: the endpoint has several subscriptions to the event, and the
// provider sends each of them its own delivery at once: two Shopify
// subscriptions to one topic give two deliveries with one
// X-Shopify-Event-Id and two X-Shopify-Webhook-Ids; a repository hook and
// an organisation hook at GitHub give two deliveries with one
// X-GitHub-Delivery and two X-GitHub-Hook-IDs. None of them is a retry,
// and no failure is needed: a handler that keys its dedup on the
// subscription's own id processes the event once per subscription. Each
// subscription's delivery is retried on its own, with the event's id and
// its own delivery id, until it succeeds or the schedule ends: a retry goes
// through the subscriptions whose deliveries failed, and the event is
// delivered if any subscription's delivery was.
//
//	type: fan-out
//	subscriptions: 2
type fanOut struct {
	Subscriptions int `yaml:"subscriptions"`
}

func init() { Register("fan-out", func() Kind { return &fanOut{} }) }

func (f *fanOut) Apply(a *Action, _ *Context) { a.FanOut = max(a.FanOut, f.Subscriptions) }

func (f *fanOut) Validate() []error {
	if f.Subscriptions < 2 || f.Subscriptions > policies.Subscriptions {
		return []error{fmt.Errorf("subscriptions: must be 2..%d, got %d (how many subscriptions deliver each event)", policies.Subscriptions, f.Subscriptions)}
	}
	return nil
}
