package simulator

import (
	"fmt"
	"reflect"
	"slices"
)

// sink hands r to the caller's Sink. The record is the engine's and is
// reused for the next one, so a sink may neither keep nor change it. In a
// race-detector build (as the tests run in CI) the engine checks both: a
// sink that changed the record, or what its slices and times point to,
// panics; and the record is spoiled after the call, so a sink that kept the
// pointer reads records that are not its own.
func (e *engine) sink(r *Record) error {
	if !raceBuild {
		return e.cfg.Sink(r)
	}
	before := deepCopy(r)
	err := e.cfg.Sink(r)
	if !reflect.DeepEqual(deepCopy(r), before) {
		panic(fmt.Sprintf("simulator: a Sink changed the %s record it was given; a sink must copy a record to change it", before.Kind))
	}
	*r = Record{Kind: "reused", EventID: "a Sink kept the record the engine lent it"}
	return err
}

// deepCopy copies r with what its slices and pointers refer to.
func deepCopy(r *Record) Record {
	c := *r
	c.Outages, c.Schedule, c.Pauses = slices.Clone(r.Outages), slices.Clone(r.Schedule), slices.Clone(r.Pauses)
	if r.Start != nil {
		t := *r.Start
		c.Start = &t
	}
	if r.DisabledAt != nil {
		t := *r.DisabledAt
		c.DisabledAt = &t
	}
	return c
}
