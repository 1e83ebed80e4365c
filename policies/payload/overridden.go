package payload

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// Overridden makes the wire's own synthetic bodies with overrides applied:
// overrides given with no payload file. Every other field is the wire's,
// as without overrides.
type Overridden struct {
	wire      policies.Wire
	overrides []Override
}

// NewOverridden checks overrides against the body wire makes for an
// event of type typ ("" for the wire's default): each must name a field of
// it. Overrides naming another provider are left out.
func NewOverridden(wire policies.Wire, typ string, overrides []Override) (*Overridden, error) {
	if _, err := policies.BodyFieldsOf(wire); err != nil {
		return nil, err
	}
	var mine []Override
	for _, o := range overrides {
		if o.Provider == "" || o.Provider == wire.Name() {
			mine = append(mine, o)
		}
	}
	if typ == "" {
		typ = wire.DefaultEventType()
	}
	ev := policies.Event{Seed: 1, Type: typ, Object: "obj_0", Created: sampleTime}
	wire.NewEvent(&ev)
	body, ctype := wire.Body(ev)
	if _, err := parse(wire, fmt.Sprintf("%s's %s payload", wire.Name(), typ), jsonOf(wire, body), "", mine, ctype); err != nil {
		return nil, err
	}
	return &Overridden{wire: wire, overrides: mine}, nil
}

// sampleTime is when the sample event an override is checked on happened.
var sampleTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// jsonOf is a wire's synthetic body as a payload: itself, or, for a wire
// that sends form parameters, the parameters as a JSON object in their
// order.
func jsonOf(wire policies.Wire, body []byte) []byte {
	if f, _ := policies.BodyFieldsOf(wire); !f.Form {
		return body
	}
	out := []byte{'{'}
	for i, pair := range strings.Split(string(body), "&") {
		k, v, _ := strings.Cut(pair, "=")
		k, _ = url.QueryUnescape(k)
		v, _ = url.QueryUnescape(v)
		if i > 0 {
			out = append(out, ',')
		}
		out = append(appendEscaped(append(out, '"'), k), '"', ':', '"')
		out = append(appendEscaped(out, v), '"')
	}
	return append(out, '}')
}

// Type is "": the run's type.
func (o *Overridden) Type(int) string { return "" }

// Body makes the wire's body of ev with the overrides applied. A body that
// lacks a field checked on the sample is sent as the wire made it.
func (o *Overridden) Body(ev policies.Event, seed uint64) ([]byte, string) {
	body, ctype := o.wire.Body(ev)
	t, err := parse(o.wire, "", jsonOf(o.wire, body), "", o.overrides, ctype)
	if err != nil {
		return body, ctype
	}
	return t.Body(ev, seed)
}
