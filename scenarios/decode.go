package scenarios

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/retrysim/retrysim/policies"
)

// ErrInvalid is returned, wrapped, for a scenario that does not decode or
// validate. The error lists every problem found, each naming the file, the
// line, the key and the value.
var ErrInvalid = errors.New("invalid scenario")

// envelopeKeys are the keys every fault shares, in the order help lists
// them.
var envelopeKeys = []string{"type", "probability", "attempts", "from", "until", "every"}

var scenarioKeys = []string{"name", "description", "include", "faults"}

// maxListLen bounds the lists a scenario may hold (attempt numbers, restart
// times), so a typo cannot make a run that never ends.
const maxListLen = 1000

// Decode reads one scenario from YAML, strictly. It reports every problem at
// once rather than stopping at the first. file names the source in errors.
func Decode(file string, data []byte) (Scenario, error) {
	return decodeWith(decoder{file: file, builtin: builtin()}, data)
}

// decodeBuiltin decodes a scenario of the built-in catalogue, which may not
// include others (the catalogue is being read).
func decodeBuiltin(file string, data []byte) (Scenario, error) {
	return decodeWith(decoder{file: file}, data)
}

// decodeWith decodes one scenario's YAML with d.
func decodeWith(d decoder, data []byte) (Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return Scenario{}, fmt.Errorf("%w: %s: %s", ErrInvalid, d.file, trimYAMLErr(err))
	}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	s := d.scenario(n, "", "")
	if err := d.err(); err != nil {
		return Scenario{}, err
	}
	s.source = data
	return s, nil
}

// DecodeMap reads the scenarios defined under the top-level key of a YAML
// file (a config file's "scenarios:"), by name: the map key is the
// scenario's name. A missing key gives an empty map. Every problem in every
// scenario is reported at once.
func DecodeMap(file string, data []byte, key string) (map[string]Scenario, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%w: %s: %s", ErrInvalid, file, trimYAMLErr(err))
	}
	out := map[string]Scenario{}
	n := &root
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = n.Content[0]
	}
	if n.Kind != yaml.MappingNode {
		return out, nil
	}
	var section *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			section = n.Content[i+1]
		}
	}
	if section == nil {
		return out, nil
	}
	d := decoder{file: file, builtin: builtin()}
	if section.Kind != yaml.MappingNode {
		d.errorf(section, "%s: expected a map of scenario names to scenarios, got %s", key, describeNode(section))
		return nil, d.err()
	}
	for i := 0; i+1 < len(section.Content); i += 2 {
		k, v := section.Content[i], section.Content[i+1]
		if k.Value == "" {
			d.errorf(k, "%s: a scenario name is empty", key)
			continue
		}
		s := d.scenario(v, key+"."+k.Value+".", k.Value)
		src, err := yaml.Marshal(v)
		if err == nil && v.Kind == yaml.MappingNode && !hasKey(v, "name") {
			src = append([]byte("name: "+k.Value+"\n"), src...)
		}
		s.source = src
		out[k.Value] = s
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return out, nil
}

type decoder struct {
	file string
	errs []problem
	// builtin holds the built-in scenarios a scenario may include; nil
	// while the built-in catalogue itself is read (it includes none).
	builtin map[string]Scenario
}

// problem is one mistake, at its line.
type problem struct {
	line int
	msg  string
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	d.errs = append(d.errs, problem{n.Line, fmt.Sprintf("%s:%d: %s", d.file, n.Line, fmt.Sprintf(format, args...))})
}

// err reports every problem, in the order of their lines in the file.
func (d *decoder) err() error {
	if len(d.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(d.errs, func(a, b problem) int { return a.line - b.line })
	msgs := make([]string, len(d.errs))
	for i, p := range d.errs {
		msgs[i] = p.msg
	}
	return fmt.Errorf("%w: %s: %d problem(s):\n  %s", ErrInvalid, d.file, len(d.errs), strings.Join(msgs, "\n  "))
}

// scenario decodes one scenario mapping. prefix goes before every key in
// errors; name, when set, is the scenario's name from a map key.
func (d *decoder) scenario(n *yaml.Node, prefix, name string) Scenario {
	s := Scenario{Name: name}
	var includes []Scenario
	if n.Kind != yaml.MappingNode {
		// A whole document is not quoted: a file that is not a scenario
		// (an .env, say) may be all secrets.
		got := describeNode(n)
		if n.Kind == yaml.ScalarNode {
			got = fmt.Sprintf("text (%d characters)", len(n.Value))
		}
		d.errorf(n, "%sa scenario is a mapping with keys %s, got %s", prefix, strings.Join(scenarioKeys, ", "), got)
		return s
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			var given string
			if d.scalar(v, prefix+"name", &given) {
				switch {
				case given == "":
					d.errorf(v, "%sname: is empty", prefix)
				case name != "" && given != name:
					d.errorf(v, "%sname: %q differs from the scenario's key %q (leave name out)", prefix, given, name)
				default:
					s.Name = given
				}
			}
		case "description":
			d.scalar(v, prefix+"description", &s.Description)
		case "include":
			includes = d.includes(v, prefix+"include")
		case "faults":
			if v.Kind != yaml.SequenceNode {
				d.errorf(v, "%sfaults: expected a list of faults, got %s", prefix, describeNode(v))
				continue
			}
			for j, fn := range v.Content {
				if f, ok := d.fault(fn, fmt.Sprintf("%sfaults[%d]", prefix, j+1)); ok {
					s.Faults = append(s.Faults, f)
				}
			}
		default:
			d.errorf(k, "%s%s: unknown key (valid: %s)", prefix, k.Value, strings.Join(scenarioKeys, ", "))
		}
	}
	if s.Name == "" && !hasKey(n, "name") {
		d.errorf(n, "%sname: missing", prefix)
	}
	if len(includes) > 0 {
		// The file's own faults first, so they decide as they would
		// without the includes; the name says every part.
		own := s
		s = Compose(append([]Scenario{own}, includes...)...)
		s.Name = own.Name
		if len(own.Faults) == 0 {
			s.Parts = s.Parts[1:]
		}
		s.Name = fmt.Sprintf("%s (%s)", own.Name, strings.Join(s.Parts, " + "))
		if own.Description != "" {
			s.Description = own.Description
		}
	}
	return s
}

// includes decodes an include: list of built-in scenarios.
func (d *decoder) includes(v *yaml.Node, key string) []Scenario {
	var names []string
	if v.Kind == yaml.ScalarNode {
		names = strings.Split(v.Value, ",")
	} else if !d.decode(v, key, &names) {
		return nil
	}
	if d.builtin == nil {
		d.errorf(v, "%s: a built-in scenario includes no other", key)
		return nil
	}
	var out []Scenario
	for _, name := range names {
		name = strings.TrimSpace(name)
		s, ok := d.builtin[name]
		if !ok {
			d.errorf(v, "%s: %q is not a built-in scenario (valid: %s)", key, name, strings.Join(slices.Sorted(maps.Keys(d.builtin)), ", "))
			continue
		}
		out = append(out, s)
	}
	return out
}

// scalar decodes a scalar value, reporting a mapping or a list where a
// single value belongs.
func (d *decoder) scalar(v *yaml.Node, key string, out any) bool {
	if v.Kind != yaml.ScalarNode {
		d.errorf(v, "%s: expected a single value, got %s", key, describeNode(v))
		return false
	}
	return d.decode(v, key, out)
}

func (d *decoder) decode(v *yaml.Node, key string, out any) bool {
	if err := v.Decode(out); err != nil {
		d.errorf(v, "%s: %s is not valid here: %s", key, describeNode(v), trimYAMLErr(err))
		return false
	}
	return true
}

// fault decodes one fault; key names it in errors ("faults[2]").
func (d *decoder) fault(n *yaml.Node, key string) (Fault, bool) {
	f := Fault{Probability: 1}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s: expected a mapping with a type (valid types: %s), got %s", key, strings.Join(Types(), ", "), describeNode(n))
		return f, false
	}
	before := len(d.errs)
	var params, envelope []*yaml.Node // key and value nodes, in pairs
	var typeNode *yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		kk := key + "." + k.Value
		switch k.Value {
		case "type":
			typeNode = v
			d.scalar(v, kk, &f.Type)
		case "probability":
			if d.scalar(v, kk, &f.Probability) && !(f.Probability >= 0 && f.Probability <= 1) { // NaN fails too
				d.errorf(v, "%s: %s is not between 0 and 1", kk, v.Value)
			}
		case "attempts":
			if d.decode(v, kk, &f.Attempts) {
				if len(f.Attempts) > maxListLen {
					d.errorf(v, "%s: %d attempt numbers is over the cap of %d", kk, len(f.Attempts), maxListLen)
				}
				for _, a := range f.Attempts {
					if a < 1 {
						d.errorf(v, "%s: attempt numbers start at 1, got %d", kk, a)
					}
				}
			}
		case "from", "until":
			var dur policies.Duration
			if d.scalar(v, kk, &dur) {
				switch {
				case dur < 0:
					d.errorf(v, "%s: %s is negative", kk, v.Value)
				case k.Value == "from":
					f.From = dur.D()
				default:
					f.Until = dur.D()
				}
			}
		case "every":
			if d.scalar(v, kk, &f.Every) && f.Every < 1 {
				d.errorf(v, "%s: %s is not allowed, every must be at least 1", kk, v.Value)
			}
		default:
			params = append(params, k, v)
			continue
		}
		envelope = append(envelope, k, v)
	}
	if f.Until != 0 && f.Until <= f.From {
		d.errorf(n, "%s: until (%s) must come after from (%s)", key, policies.FormatDuration(f.Until), policies.FormatDuration(f.From))
	}
	if f.From != 0 && f.Until == 0 {
		d.errorf(n, "%s: from (%s) needs until", key, policies.FormatDuration(f.From))
	}
	newKind, ok := kinds[f.Type]
	switch {
	case typeNode == nil:
		d.errorf(n, "%s.type: missing (valid: %s)", key, strings.Join(Types(), ", "))
		return f, false
	case !ok:
		d.errorf(typeNode, "%s.type: unknown fault type %q (valid: %s)", key, f.Type, strings.Join(Types(), ", "))
		return f, false
	}
	f.Kind = newKind()
	allowedEnvelope := envelopeKeys
	if l, ok := f.Kind.(envelopeLimiter); ok {
		allowedEnvelope = append([]string{"type"}, l.envelope()...)
	}
	for i := 0; i < len(envelope); i += 2 {
		if k := envelope[i]; !slices.Contains(allowedEnvelope, k.Value) {
			d.errorf(k, "%s.%s: %s does not take %s (valid: %s)", key, k.Value, f.Type, k.Value, strings.Join(append(slices.Clone(allowedEnvelope), paramKeys(f.Kind)...), ", "))
		}
	}
	allowed := paramKeys(f.Kind)
	beforeParams := len(d.errs)
	for i := 0; i < len(params); i += 2 {
		k, v := params[i], params[i+1]
		if !slices.Contains(allowed, k.Value) {
			d.errorf(k, "%s.%s: %s has no key %q (valid: %s)", key, k.Value, f.Type, k.Value, strings.Join(append(slices.Clone(allowedEnvelope), allowed...), ", "))
			continue
		}
		one := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: k.Line, Content: []*yaml.Node{k, v}}
		if err := one.Decode(newKind()); err != nil {
			d.errorf(v, "%s.%s: %s is not valid here: %s", key, k.Value, describeNode(v), trimYAMLErr(err))
		}
	}
	// The fault's own checks need its parameters decoded; a mistake in the
	// envelope (probability, from, …) does not stop them, so every mistake
	// of the file is reported at once.
	if len(d.errs) == beforeParams {
		all := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: n.Line, Content: params}
		if err := all.Decode(f.Kind); err != nil {
			d.errorf(n, "%s (%s): %s", key, f.Type, trimYAMLErr(err))
		}
		errs := f.Kind.Validate()
		if ec, ok := f.Kind.(envelopeChecker); ok {
			errs = append(errs, ec.checkEnvelope(f.From, f.Until)...)
		}
		for _, err := range errs {
			// A kind's errors start with the key they are about: point at
			// that key's line when it was written.
			at := n
			k, _, _ := strings.Cut(err.Error(), ":")
			for i := 0; i < len(params); i += 2 {
				if params[i].Value == k {
					at = params[i]
				}
			}
			d.errorf(at, "%s (%s): %v", key, f.Type, err)
		}
	}
	return f, len(d.errs) == before
}

// describeNode shows a value in an error: the scalar quoted, or what kind of
// value it is.
func describeNode(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return fmt.Sprintf("%q", n.Value)
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

func hasKey(n *yaml.Node, key string) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return true
		}
	}
	return false
}

func trimYAMLErr(err error) string {
	s := err.Error()
	s = strings.TrimPrefix(s, "yaml: unmarshal errors:\n  ")
	s = strings.TrimPrefix(s, "yaml: ")
	return strings.ReplaceAll(s, "\n  ", "; ")
}
