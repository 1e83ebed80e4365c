package payload

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// Override sets one field of every event's body: [provider:]path=value.
type Override struct {
	// Provider is the provider whose payloads it changes; "" for the
	// only one.
	Provider string
	// Path names the field: object keys and array indexes joined by dots
	// (data.object.customer, line_items.0.price).
	Path string
	// Value is the field's new value, as JSON.
	Value []byte
}

// ErrBadOverride is returned, wrapped, for an override that cannot be read
// or applied.
var ErrBadOverride = errors.New("bad override")

// ParseOverride reads [provider:]path=value. The value is taken as JSON
// when it is valid JSON (42, true, {"a":1}, "text"), else as a string:
// cus_123 and "cus_123" set the same string. A string value may hold
// placeholders, as a payload's strings may. The provider is a wire's name
// (stripe, github, …).
func ParseOverride(s string) (Override, error) {
	lhs, val, ok := strings.Cut(s, "=")
	if !ok {
		return Override{}, fmt.Errorf("%w %q: expected [provider:]path=value, e.g. data.object.customer=cus_123", ErrBadOverride, s)
	}
	var o Override
	if prov, path, ok := strings.Cut(lhs, ":"); ok {
		if _, known := policies.WireFor(strings.ToLower(prov)); !known {
			return Override{}, fmt.Errorf("%w %q: unknown provider %q (valid: %s)", ErrBadOverride, s, prov, strings.Join(policies.WireNames(), ", "))
		}
		o.Provider, lhs = strings.ToLower(prov), path
	}
	o.Path = strings.TrimSpace(lhs)
	if o.Path == "" || strings.HasPrefix(o.Path, ".") || strings.HasSuffix(o.Path, ".") || strings.Contains(o.Path, "..") {
		return Override{}, fmt.Errorf("%w %q: the path %q is not keys joined by dots, e.g. data.object.customer", ErrBadOverride, s, lhs)
	}
	if t := strings.TrimSpace(val); t != "" && json.Valid([]byte(t)) {
		o.Value = []byte(t)
	} else {
		o.Value = append(appendEscaped([]byte{'"'}, val), '"')
	}
	return o, nil
}

// String writes the override as it is given.
func (o Override) String() string {
	if o.Provider != "" {
		return o.Provider + ":" + o.Path + "=" + string(o.Value)
	}
	return o.Path + "=" + string(o.Value)
}
