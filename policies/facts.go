package policies

import (
	_ "embed"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"
)

// Fact is one fact a built-in policy states, with where it comes from: a
// row of the fact tables in docs/PROVIDERS.md and of `retrysim policies
// show`.
type Fact struct {
	// Fact names what the row is about, one of FactKinds' names where a
	// policy states it ("schedule", "disable", "signature", ...).
	Fact string `yaml:"fact"`
	// Policies are the built-in policies that state it.
	Policies []string `yaml:"policies"`
	// Value is the fact itself, in words.
	Value string `yaml:"value"`
	// Basis is how sure it is: D the provider's docs, C the provider's SDK
	// or verifier code, S secondhand, I retrysim's inference or assumption.
	Basis string `yaml:"basis"`
	// Source names where it comes from: a page's title, an issue, a
	// package.
	Source string `yaml:"source"`
	// Checked is the date (YYYY-MM-DD) the fact was last checked against
	// its source.
	Checked string `yaml:"checked"`
}

// Secondhand reports whether the fact's source is not the provider.
func (f Fact) Secondhand() bool { return f.Basis == "S" }

// ProviderFacts are one provider's facts, as docs/PROVIDERS.md groups them.
type ProviderFacts struct {
	Provider string `yaml:"provider"`
	Rows     []Fact `yaml:"rows"`
}

//go:embed facts.yaml
var factsYAML []byte

var allFacts = sync.OnceValue(func() []ProviderFacts {
	var out []ProviderFacts
	dec := yaml.NewDecoder(strings.NewReader(string(factsYAML)))
	dec.KnownFields(true)
	if err := dec.Decode(&out); err != nil {
		panic(fmt.Sprintf("policies: facts.yaml: %v", err))
	}
	return out
})

// AllFacts returns every provider's facts, in the order of facts.yaml. The
// slices must not be modified.
func AllFacts() []ProviderFacts { return allFacts() }

// FactsOf returns the facts policy name states, in the order of
// facts.yaml.
func FactsOf(name string) []Fact {
	var out []Fact
	for _, pf := range allFacts() {
		for _, f := range pf.Rows {
			if slices.Contains(f.Policies, name) {
				out = append(out, f)
			}
		}
	}
	return out
}

// FactKinds names the facts p states: its schedule, timeout, signature and
// dedup id always, and each rule it sets (connect_timeout, retries,
// url_overrides, success, follow_redirects, stop, retry_after, disable,
// manual_redelivery, fan_out, signature_probe, api_version).
func FactKinds(p *Policy) []string {
	kinds := []string{"schedule", "timeout", "signature", "dedup"}
	add := func(set bool, kind string) {
		if set {
			kinds = append(kinds, kind)
		}
	}
	add(p.ConnectTimeout > 0, "connect_timeout")
	add(p.Retries != nil, "retries")
	add(p.URLOverrides, "url_overrides")
	add(len(p.Success) > 0, "success")
	add(p.FollowRedirects > 0, "follow_redirects")
	add(len(p.Stop) > 0, "stop")
	add(p.RetryAfter != nil, "retry_after")
	add(p.Disable != nil, "disable")
	add(p.ManualRedelivery > 0, "manual_redelivery")
	add(p.FanOut != nil, "fan_out")
	add(p.SignatureProbe != nil, "signature_probe")
	if w := p.Wire(); w != nil {
		_, versioned := w.(Versioner)
		add(versioned, "api_version")
	}
	return kinds
}

// WriteFactTable writes facts as a markdown table: fact, value, basis,
// source, checked, secondhand, and with policies the policies each row is
// about.
func WriteFactTable(w io.Writer, facts []Fact, policies bool) error {
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	var b strings.Builder
	if policies {
		b.WriteString("| fact | value | policies | basis | source | checked | secondhand |\n|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| fact | value | basis | source | checked | secondhand |\n|---|---|---|---|---|---|\n")
	}
	for _, f := range facts {
		second := ""
		if f.Secondhand() {
			second = "yes"
		}
		b.WriteString("| " + f.Fact + " | " + cell(f.Value))
		if policies {
			b.WriteString(" | `" + strings.Join(f.Policies, "`, `") + "`")
		}
		b.WriteString(" | " + f.Basis + " | " + cell(f.Source) + " | " + f.Checked + " | " + second + " |\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
