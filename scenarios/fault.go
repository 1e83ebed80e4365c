package scenarios

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Kind is the type-specific part of a fault: its parameters and what it does
// to an attempt. Kinds are registered by name with Register.
type Kind interface {
	// Apply changes the action for one attempt. It is called only when the
	// envelope's conditions hold and the probability roll succeeded.
	Apply(a *Action, c *Context)
	// Validate reports every problem with the parameters, each naming the
	// key and the value.
	Validate() []error
}

// Context is what a fault may look at when it decides.
type Context struct {
	// Event is the event's index in the workload, from 0.
	Event int
	// Attempt is the attempt number, from 1.
	Attempt int
	// At is the attempt's virtual time, measured from the start of the run.
	At time.Duration
	// Since is the attempt's virtual time measured from the event's first
	// attempt.
	Since time.Duration
	// Next is when the next event about the same object is first sent,
	// measured from the start of the run; negative when there is none.
	Next time.Duration
	// Timeout is the provider's timeout for this attempt.
	Timeout time.Duration
	// Rand is keyed by (seed, event, attempt, fault): the only randomness a
	// fault may use.
	Rand *policies.Rand
	// Held says the provider already held this attempt back once (Hold):
	// it is now being sent.
	Held bool
}

// Action is what the engine does with one attempt. The zero Action sends the
// request and reports what the handler answered.
type Action struct {
	// Faults names the faults that applied, in scenario order: those that
	// changed the Effect.
	Faults []string
	// Effect is what the faults decided to do to the attempt.
	Effect
	// Attacks are requests sent beside the attempt that the handler must
	// reject (see Attack). They change nothing about the attempt itself, so
	// they are not among Faults: the engine records each on its own.
	Attacks []Attack
}

// Effect is what faults do to one attempt, as fault types set it. What
// each field does to the attempt is the engine's, one file per effect
// (simulator/fault_*.go); when several faults apply, the order in which it
// honours them is listed in simulator/fault.go: BlackHole, Drop, a Redirect
// the provider does not follow, EdgeStatus (the request never reaches the
// handler); then it sends the request (twice with Duplicate) and, on the
// way back, Reset, LoseResponse and Latency.
type Effect struct {
	// Drop means the request never reaches the handler: the connection is
	// refused.
	Drop bool
	// Outage says an outage window is what dropped it (the reports show
	// outages as spans of time).
	Outage bool
	// BlackHole means the request goes nowhere and nothing answers: the
	// provider waits out its timeout. The handler is not reached.
	BlackHole bool
	// EdgeStatus, when not 0, is answered by a proxy in front of the handler,
	// which the request never reaches.
	EdgeStatus int
	// Redirect, when not 0, is the status (301 or 308) the old address
	// answers with; RedirectHops is how many redirects lead to the handler.
	// A provider that follows at least that many reaches the handler; one
	// that follows fewer sees the outcome redirect.
	Redirect     int
	RedirectHops int
	// Reset means the connection is reset after the request was sent and
	// before the answer arrived: the handler was reached (and is left to
	// finish its work), the provider sees a failed connection.
	Reset bool
	// LoseResponse means the handler answered but the answer was lost on the
	// way back: the provider sees a timeout.
	LoseResponse bool
	// Latency is virtual time added to the handler's real response time.
	Latency time.Duration
	// Duplicate means the provider sends the same request twice at the same
	// moment, so that the two overlap in the handler.
	Duplicate bool
	// Hold, when positive, means the provider itself holds the attempt
	// back that long before it sends it (its own outage or a slow
	// pipeline): the attempt is then sent, late, and faults are asked
	// again with Context.Held set.
	Hold time.Duration
	// Late marks an attempt the provider held back (Hold) as it is now
	// sent, late: it is not held again, and Faults names the fault that
	// held it.
	Late bool
	// ProviderDrop means the provider never sends the attempt and gives
	// the event up: it is lost without your handler having failed.
	ProviderDrop bool
	// FanOut, when 2 or more, is the number of subscriptions the provider
	// sends the attempt through at once, each with the ids of its own
	// subscription (policies.Delivery.Subscription).
	FanOut int
}

// Fault returns the applied faults as the record shows them: "" when none,
// else their types joined by "+".
func (a *Action) Fault() string { return strings.Join(a.Faults, "+") }

// Reaches reports whether the request is sent towards the handler at all
// (a redirect may still stop it, depending on the provider).
func (a *Action) Reaches() bool {
	return !a.Drop && !a.BlackHole && a.EdgeStatus == 0 && a.Hold == 0 && !a.ProviderDrop
}

// envelopeLimiter is implemented by kinds that accept only some envelope
// keys (a restart happens at moments, not to attempts).
type envelopeLimiter interface {
	envelope() []string
}

// envelopeChecker is implemented by kinds whose parameters depend on the
// envelope (a restart interval needs an until).
type envelopeChecker interface {
	checkEnvelope(from, until time.Duration) []error
}

var kinds = map[string]func() Kind{}

// Register makes a fault type available to scenarios under name. newKind
// returns a pointer to a zero parameter struct whose yaml tags name the
// type's keys. Registering a name twice panics.
func Register(name string, newKind func() Kind) {
	if _, dup := kinds[name]; dup {
		panic(fmt.Sprintf("scenarios: fault type %q registered twice", name))
	}
	if slices.Contains(envelopeKeys, name) {
		panic(fmt.Sprintf("scenarios: fault type %q clashes with an envelope key", name))
	}
	kinds[name] = newKind
}

// Types lists the registered fault types, sorted.
func Types() []string {
	out := make([]string, 0, len(kinds))
	for n := range kinds {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// paramKeys lists the yaml keys of a kind's parameter struct.
func paramKeys(k Kind) []string {
	t := reflect.TypeOf(k)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var out []string
	if t.Kind() != reflect.Struct {
		return nil
	}
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if tag != "" && tag != "-" {
			out = append(out, tag)
		}
	}
	return out
}
