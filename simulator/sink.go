package simulator

import (
	"fmt"
	"reflect"
)

// sink hands r to the caller's Sink. The record is the engine's and is
// reused for the next one, so a sink may neither keep nor change it. In a
// race-detector build (as the tests run in CI) the engine checks both: a
// sink that changed the record panics, and the record is overwritten after
// the call, so a sink that kept the pointer reads records that are plainly
// wrong.
func (e *engine) sink(r *Record) error {
	if !checkSinks {
		return e.cfg.Sink(r)
	}
	before := *r
	err := e.cfg.Sink(r)
	if !reflect.DeepEqual(*r, before) {
		panic(fmt.Sprintf("simulator: a Sink changed the %s record it was given; a sink must copy a record to change it", before.Kind))
	}
	*r = Record{Kind: "reused", Event: "a Sink kept the record the engine lent it"}
	return err
}
