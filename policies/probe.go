package policies

import "fmt"

// ProbeRule is a provider's own check that an endpoint verifies signatures:
// when the endpoint is set up it sends a request signed with the wrong key,
// and removes an endpoint that answers with anything but Expect (Discord's
// invalid-signature probes, answered 401).
type ProbeRule struct {
	// Expect is the status the endpoint must answer the probe with.
	Expect int `yaml:"expect"`
}

func (r *ProbeRule) validate() []error {
	if r.Expect < 400 || r.Expect > 499 {
		return []error{fmt.Errorf("signature_probe.expect must be a 4xx status (Discord: 401), got %d", r.Expect)}
	}
	return nil
}

// String says the rule in words.
func (r *ProbeRule) String() string {
	return fmt.Sprintf("probes the endpoint with an invalid signature and removes it unless it answers %d", r.Expect)
}
