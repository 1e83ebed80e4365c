package simulator

import (
	"net/http"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Incoming is a real delivery that becomes an event of a run while the run
// goes on (Config.Incoming): retrysim proxy turns each verified delivery
// from `stripe listen`, `gh webhook forward` or a tunnel into one. The
// event keeps the delivery's id, type, body and headers; every attempt is
// signed afresh the provider's way, and only the headers that change from
// attempt to attempt (the signature, its timestamp, a retry counter) are
// replaced.
type Incoming struct {
	// ID is the delivery's dedup id, as the wire format reads it.
	ID string
	// Type is the event type, "" when the delivery does not say.
	Type string
	// Body is the payload, byte for byte.
	Body []byte
	// Header is the delivery's headers. Connection headers are dropped.
	Header http.Header
	// First, when set, is sent what the event's first attempt came to as
	// soon as it is known, before the run applies it in order: the proxy
	// answers upstream with it. It must have room for one value; nothing
	// else is ever sent on it.
	First chan<- FirstAnswer
}

// FirstAnswer is what the first attempt of a real delivery came to.
type FirstAnswer struct {
	// HandlerStatus is what the handler answered, 0 when it did not.
	HandlerStatus int
	// Outcome is how the provider classified the attempt.
	Outcome Outcome
	// Fault names the faults injected into it, "" when none.
	Fault string
}

// incomingEvents holds the deliveries that arrived and whose events have
// not started yet, by their place in the run.
type incomingEvents map[int]*Incoming

// arrive queues the first attempt of a delivery that just came in, as the
// next event of the run. It is placed at the latest virtual time any
// attempt was sent or applied at: every coupling was judged for the
// attempts already out as if nothing could come before them, and nothing
// does.
func (e *engine) arrive(in *Incoming) {
	if e.incoming == nil {
		e.incoming = incomingEvents{}
	}
	i := e.arrived
	e.arrived++
	e.incoming[i] = in
	at := max(e.horizon, e.lastArrival)
	e.lastArrival = at
	e.q.push(newDue(time.Duration(at), i, 1))
}

// liveEvent builds event i, which arrived at, from its delivery. Its object
// is its own: what a real event is about is not known.
func (e *engine) liveEvent(i int, at time.Duration) (policies.Event, *Incoming) {
	in := e.incoming[i]
	delete(e.incoming, i)
	e.liveIDs = append(e.liveIDs, in.ID)
	ev := policies.Event{Seq: i, ID: in.ID, Type: in.Type, Created: e.cfg.Start.Add(at)}
	if ev.Type == "" {
		ev.Type = e.cfg.EventType
	}
	return ev, in
}

// resend turns req, the engine's request for an attempt of a real
// delivery, into the delivery as it came with only the attempt's own
// headers (signature, timestamp, retry counter) and retrysim's virtual
// time taken from req.
func resend(req *http.Request, in *Incoming, wire policies.Wire) {
	req.Header = overlay(in.Header, req.Header, resentHeaders(wire))
}

// DropConnectionHeaders removes the headers that belong to one connection,
// not to the delivery.
func DropConnectionHeaders(h http.Header) {
	for _, k := range []string{"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Transfer-Encoding", "Upgrade", "Content-Length", "Host", "Accept-Encoding"} {
		h.Del(k)
	}
	for k := range h {
		if strings.HasPrefix(k, "X-Forwarded-") || k == "Forwarded" || k == "X-Real-Ip" {
			delete(h, k)
		}
	}
}

// eventsKnown is how many events the run has: its workload's, or the real
// deliveries that came in.
func (e *engine) eventsKnown() int {
	if e.cfg.Incoming != nil {
		return len(e.liveIDs)
	}
	return e.cfg.Events
}

// eventID is the dedup id of event seq.
func (e *engine) eventID(seq int) string {
	if e.cfg.Incoming != nil {
		return e.liveIDs[seq]
	}
	return e.work.id(seq)
}
