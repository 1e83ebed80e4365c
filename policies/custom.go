package policies

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Catalogue is a set of policies by name: the built-in one (Default), or the
// built-in one extended with a user's custom policies (Extend).
type Catalogue struct{ m map[string]Policy }

// Default returns the built-in catalogue.
func Default() *Catalogue { return &Catalogue{m: builtin()} }

// Names returns the catalogue's policy names, sorted.
func (c *Catalogue) Names() []string {
	names := make([]string, 0, len(c.m))
	for n := range c.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lookup returns the policy called name.
func (c *Catalogue) Lookup(name string) (Policy, error) {
	p, ok := c.m[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Policy{}, fmt.Errorf("%w %q (valid: %s)", ErrUnknownPolicy, name, joinNames(c.Names()))
	}
	return p, nil
}

// ErrBadConfig is returned, wrapped, for a custom policy that cannot be
// read; the message names the file, the key and the value.
var ErrBadConfig = errors.New("bad policy config")

// policyKeys maps the YAML keys of a Policy to its field indexes.
var policyKeys = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[Policy]()
	for i := range t.NumField() {
		tag, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if tag != "" && tag != "-" {
			m[tag] = i
		}
	}
	return m
}()

// ExtendYAML is Extend for a YAML document whose top level is the policies
// mapping itself.
func (c *Catalogue) ExtendYAML(file string, data []byte) (*Catalogue, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrBadConfig, file, err)
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	return c.Extend(file, doc.Content[0])
}

// Extend returns a catalogue with the custom policies of node added, node
// being the mapping under a config file's "policies:" key. An entry named
// after an existing policy overrides the fields it gives
// (stripe: {timeout: 20s}); a new name defines a policy, from scratch
// (provider, schedule and timeout required) or from another one with
// "base: NAME". Decoding is strict, and every problem is reported at once,
// each naming file, line, key and value.
func (c *Catalogue) Extend(file string, node *yaml.Node) (*Catalogue, error) {
	out := &Catalogue{m: make(map[string]Policy, len(c.m))}
	for k, v := range c.m {
		out.m[k] = v
	}
	if node == nil || (node.Kind == yaml.ScalarNode && node.Tag == "!!null") {
		return out, nil
	}
	if node.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%w: %s:%d: policies: expected a map of policy names to fields, got %s", ErrBadConfig, file, node.Line, describeNode(node))
	}
	var errs []error
	for i := 0; i+1 < len(node.Content); i += 2 {
		kn, vn := node.Content[i], node.Content[i+1]
		p, err := decodeCustom(out, file, kn, vn)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out.m[p.Name] = p
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %w", ErrBadConfig, errors.Join(errs...))
	}
	return out, nil
}

func decodeCustom(c *Catalogue, file string, kn, vn *yaml.Node) (Policy, error) {
	name := strings.ToLower(strings.TrimSpace(kn.Value))
	at := fmt.Sprintf("%s:%d: policies.%s", file, kn.Line, kn.Value)
	if name == "" || strings.ContainsAny(name, " \t,") {
		return Policy{}, fmt.Errorf("%s: %q is not a policy name (letters, digits, - and _)", at, kn.Value)
	}
	if vn.Kind != yaml.MappingNode {
		return Policy{}, fmt.Errorf("%s: expected a map of fields, got %s", at, describeNode(vn))
	}
	p, exists := c.m[name]
	from := name // the policy whose figures p starts from
	for i := 0; i+1 < len(vn.Content); i += 2 {
		if vn.Content[i].Value != "base" {
			continue
		}
		b := vn.Content[i+1]
		if exists {
			return Policy{}, fmt.Errorf("%s:%d: policies.%s.base: %q: base is for a new policy; %s already exists, so give just the fields to change", file, b.Line, kn.Value, b.Value, name)
		}
		base, err := c.Lookup(b.Value)
		if err != nil {
			return Policy{}, fmt.Errorf("%s:%d: policies.%s.base: %w", file, b.Line, kn.Value, err)
		}
		p, exists, from = base, true, base.Name
	}
	if !exists {
		p = Policy{}
	}
	p.Name = name
	p.delays = nil
	var errs []error
	var changed []string
	pv := reflect.ValueOf(&p).Elem()
	for i := 0; i+1 < len(vn.Content); i += 2 {
		key, val := vn.Content[i], vn.Content[i+1]
		path := fmt.Sprintf("%s:%d: policies.%s.%s", file, key.Line, kn.Value, key.Value)
		if key.Value == "base" {
			continue
		}
		if key.Value == "name" {
			errs = append(errs, fmt.Errorf("%s: %q: the name is the key above; leave name out", path, val.Value))
			continue
		}
		idx, ok := policyKeys[key.Value]
		if !ok {
			errs = append(errs, fmt.Errorf("%s: unknown key (valid: base, %s)", path, joinNames(customKeys())))
			continue
		}
		f := pv.Field(idx)
		fresh := reflect.New(f.Type())
		if err := decodeStrict(val, fresh.Interface()); err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", path, describeNode(val), err))
			continue
		}
		f.Set(fresh.Elem())
		changed = append(changed, key.Value)
	}
	if len(errs) > 0 {
		return Policy{}, errors.Join(errs...)
	}
	if errs := checkCustom(&p, file, kn, vn, exists); len(errs) > 0 {
		return Policy{}, errors.Join(errs...)
	}
	if exists {
		traceChanges(&p, from, fmt.Sprintf("%s:%d", file, kn.Line), changed)
	}
	return p, nil
}

// requiredKeys are the keys a policy defined from scratch must give.
var requiredKeys = []string{"provider", "schedule", "timeout"}

// checkCustom validates a config file's policy p (entry kn: vn) and points
// each problem at the file, the line and the key it is about: the key's
// own line when the entry gives it, else the entry's line. A key a new
// policy needs and does not give is called missing.
func checkCustom(p *Policy, file string, kn, vn *yaml.Node, exists bool) []error {
	var errs []error
	given := map[string]int{}
	for i := 0; i+1 < len(vn.Content); i += 2 {
		given[vn.Content[i].Value] = vn.Content[i].Line
	}
	missing := map[string]bool{}
	if !exists {
		for _, k := range requiredKeys {
			if _, ok := given[k]; !ok {
				missing[k] = true
				errs = append(errs, invalid(fmt.Errorf("%s:%d: policies.%s.%s: missing: a new policy needs %s, %s and %s (or base: NAME to start from another policy)",
					file, kn.Line, kn.Value, k, requiredKeys[0], requiredKeys[1], requiredKeys[2])))
			}
		}
	}
	delays, problems := p.check()
	for _, e := range problems {
		path, rest := splitKey(e.Error())
		top := strings.FieldsFunc(path, func(r rune) bool { return r == '.' || r == '[' })
		key := path
		if len(top) > 0 {
			key = top[0]
		}
		if missing[key] {
			continue // said above, in words that fit a key not given
		}
		line, ok := given[key]
		if !ok {
			line = kn.Line
		}
		errs = append(errs, invalid(fmt.Errorf("%s:%d: policies.%s.%s: %s", file, line, kn.Value, path, rest)))
	}
	if len(errs) == 0 {
		p.delays = delays
	}
	return errs
}

// invalidError is a problem of a policy that is ErrInvalidPolicy without
// saying so first: the message starts with the file and line.
type invalidError struct{ error }

func (e invalidError) Is(target error) bool { return target == ErrInvalidPolicy }

func invalid(err error) error { return invalidError{err} }

// splitKey splits a problem of Policy.check into the key path it starts
// with (disable.failure_rate, stop[1].status) and the rest of the message.
func splitKey(msg string) (path, rest string) {
	i := strings.IndexFunc(msg, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '.' || r == '[' || r == ']')
	})
	if i <= 0 {
		return "", msg
	}
	path, rest = msg[:i], strings.TrimLeft(msg[i:], ": ")
	return path, rest
}

// traceChanges keeps a changed built-in's figures traceable: unless the
// entry wrote its own, the summary is worked out again when the schedule
// changed and names what changed and where, and the source and notes say
// where the changes come from.
func traceChanges(p *Policy, from, where string, changed []string) {
	set := func(k string) bool { return slices.Contains(changed, k) }
	if !set("summary") && (set("schedule") || set("retries")) {
		p.Summary = Counted(p.MaxAttempts(), "attempt", "attempts") + " over " + FormatDuration(p.Window())
	}
	if !set("summary") && len(changed) > 0 && from == p.Name {
		// The summary heads every report: a run on a changed built-in says
		// so where a reader looks first.
		p.Summary = fmt.Sprintf("%s; %s changed in %s", p.Summary, strings.Join(changed, ", "), where)
	}
	what := fmt.Sprintf("%s from %s", strings.Join(changed, ", "), where)
	if from != p.Name {
		what = fmt.Sprintf("%s, otherwise as %s", what, from)
	}
	if !set("source") {
		p.Source = fmt.Sprintf("Custom (%s). %s", what, p.Source)
	}
	if !set("notes") && len(changed) > 0 {
		p.Notes = fmt.Sprintf("Changed: %s. %s", what, p.Notes)
	}
}

// customKeys lists the keys a custom policy may set, sorted.
func customKeys() []string {
	var keys []string
	for k := range policyKeys {
		if k != "name" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// decodeStrict decodes node into v, failing on unknown keys at any depth
// (yaml.Node.Decode alone ignores them).
func decodeStrict(node *yaml.Node, v any) error {
	data, err := yaml.Marshal(node)
	if err != nil {
		return err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		return errors.New(strings.TrimPrefix(err.Error(), "yaml: "))
	}
	return nil
}

// describeNode renders a value for an error message, shortened.
func describeNode(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return fmt.Sprintf("%q", n.Value)
	}
	data, err := yaml.Marshal(n)
	if err != nil {
		return n.Tag
	}
	s := strings.Join(strings.Fields(string(data)), " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return s
}
