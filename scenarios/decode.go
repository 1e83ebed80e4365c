package scenarios

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrysim/retrysim/policies"
)

// ErrInvalid is returned, wrapped, for a scenario that does not decode or
// validate. The error lists every problem found, each naming the file, the
// line and the key.
var ErrInvalid = errors.New("invalid scenario")

var envelopeKeys = map[string]bool{
	"type": true, "probability": true, "attempts": true, "from": true, "until": true, "every": true,
}

var scenarioKeys = []string{"name", "description", "faults"}

// Decode reads one scenario from YAML, strictly. It reports every problem at
// once rather than stopping at the first.
func Decode(file string, data []byte) (Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Scenario{}, fmt.Errorf("%w: %s: %w", ErrInvalid, file, err)
	}
	d := decoder{file: file}
	s := d.scenario(&root)
	if len(d.errs) > 0 {
		return Scenario{}, fmt.Errorf("%w: %s: %d problem(s):\n  %s", ErrInvalid, file, len(d.errs), strings.Join(d.errs, "\n  "))
	}
	return s, nil
}

type decoder struct {
	file string
	errs []string
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errs = append(d.errs, fmt.Sprintf("%s:%d: %s", d.file, n.Line, fmt.Sprintf(format, args...)))
}

func (d *decoder) scenario(root *yaml.Node) Scenario {
	var s Scenario
	n := root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "a scenario is a mapping with keys %s", strings.Join(scenarioKeys, ", "))
		return s
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			d.decode(v, "name", &s.Name)
		case "description":
			d.decode(v, "description", &s.Description)
		case "faults":
			if v.Kind != yaml.SequenceNode {
				d.errorf(v, "faults: expected a list of faults")
				continue
			}
			for j, fn := range v.Content {
				if f, ok := d.fault(fn, j+1); ok {
					s.Faults = append(s.Faults, f)
				}
			}
		default:
			d.errorf(k, "unknown key %q (valid: %s)", k.Value, strings.Join(scenarioKeys, ", "))
		}
	}
	if s.Name == "" {
		d.errorf(n, "name: missing")
	}
	return s
}

func (d *decoder) decode(v *yaml.Node, key string, out any) bool {
	if err := v.Decode(out); err != nil {
		d.errorf(v, "%s: %q is not valid here: %v", key, v.Value, trimYAMLErr(err))
		return false
	}
	return true
}

func (d *decoder) fault(n *yaml.Node, idx int) (Fault, bool) {
	f := Fault{Probability: 1}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "faults[%d]: expected a mapping with a type", idx)
		return f, false
	}
	before := len(d.errs)
	params := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line}
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		key := fmt.Sprintf("faults[%d].%s", idx, k.Value)
		switch k.Value {
		case "type":
			typeNode = v
			d.decode(v, key, &f.Type)
		case "probability":
			if d.decode(v, key, &f.Probability) && !(f.Probability >= 0 && f.Probability <= 1) { // NaN fails too
				d.errorf(v, "%s: %s is not between 0 and 1", key, v.Value)
			}
		case "attempts":
			if d.decode(v, key, &f.Attempts) {
				for _, a := range f.Attempts {
					if a < 1 {
						d.errorf(v, "%s: attempt numbers start at 1, got %d", key, a)
					}
				}
			}
		case "from", "until":
			var dur policies.Duration
			if d.decode(v, key, &dur) {
				if k.Value == "from" {
					f.From = dur.D()
				} else {
					f.Until = dur.D()
				}
			}
		case "every":
			if d.decode(v, key, &f.Every) && f.Every < 1 {
				d.errorf(v, "%s: must be at least 1, got %d", key, f.Every)
			}
		default:
			params.Content = append(params.Content, k, v)
		}
	}
	if f.Until != 0 && f.Until <= f.From {
		d.errorf(n, "faults[%d]: until (%s) must come after from (%s)", idx, policies.FormatDuration(f.Until), policies.FormatDuration(f.From))
	}
	if f.From != 0 && f.Until == 0 {
		d.errorf(n, "faults[%d]: from needs until", idx)
	}
	newKind, ok := kinds[f.Type]
	switch {
	case typeNode == nil:
		d.errorf(n, "faults[%d]: type missing (valid: %s)", idx, strings.Join(Types(), ", "))
		return f, false
	case !ok:
		d.errorf(typeNode, "faults[%d].type: unknown fault type %q (valid: %s)", idx, f.Type, strings.Join(Types(), ", "))
		return f, false
	}
	f.Kind = newKind()
	allowed := paramKeys(f.Kind)
	for i := 0; i+1 < len(params.Content); i += 2 {
		k := params.Content[i]
		if !contains(allowed, k.Value) {
			valid := append(sortedKeys(envelopeKeys), allowed...)
			d.errorf(k, "faults[%d]: %s has no key %q (valid: %s)", idx, f.Type, k.Value, strings.Join(valid, ", "))
		}
	}
	if len(d.errs) == before {
		if err := params.Decode(f.Kind); err != nil {
			d.errorf(n, "faults[%d] (%s): %v", idx, f.Type, trimYAMLErr(err))
		}
		for _, err := range f.Kind.Validate() {
			d.errorf(n, "faults[%d] (%s): %v", idx, f.Type, err)
		}
	}
	return f, len(d.errs) == before
}

func trimYAMLErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "yaml: unmarshal errors:\n  ")
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for _, k := range []string{"type", "probability", "attempts", "from", "until", "every"} {
		if m[k] {
			out = append(out, k)
		}
	}
	return out
}
