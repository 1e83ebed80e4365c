package report

// What one arrival of an event at the handler was: the one fact behind
// the report's duplicate and refused counts and the proxy's live lines.

// Arrival is what one arrival of an event at the handler was.
type Arrival int

const (
	// ArrivalTakenIn is the first arrival the handler did not turn away
	// with a 4xx: it answered 2xx, or may have done the work before
	// failing (5xx, no answer in time, the answer lost).
	ArrivalTakenIn Arrival = iota
	// ArrivalRefused was answered 4xx before the handler had taken the
	// event in (a wrong secret, a wrong path): it delivered nothing, so it
	// is not a duplicate.
	ArrivalRefused
	// ArrivalDuplicate came after the handler had taken the event in.
	ArrivalDuplicate
)

// EventArrivals follows one event's arrivals at the handler. The zero
// value is an event that has not reached it yet.
type EventArrivals struct{ takenIn bool }

// Arrive says what an arrival answered with handlerStatus (0 when the
// handler gave no answer) was, and notes it.
func (e *EventArrivals) Arrive(handlerStatus int) Arrival {
	switch {
	case e.takenIn:
		return ArrivalDuplicate
	case handlerStatus >= 400 && handlerStatus < 500:
		return ArrivalRefused
	}
	e.takenIn = true
	return ArrivalTakenIn
}
