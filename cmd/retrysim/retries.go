package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/policies"
)

// retriesFlag is --retries: unset means each policy's own number, which
// differs by policy, so the help shows no single default.
type retriesFlag struct {
	n   int
	set bool
}

func (f *retriesFlag) String() string {
	if !f.set {
		return ""
	}
	return strconv.Itoa(f.n)
}

func (f *retriesFlag) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 {
		return fmt.Errorf("%q is not a number of retries (give 0 or more)", s)
	}
	*f = retriesFlag{n: n, set: true}
	return nil
}

func (f *retriesFlag) Type() string { return "int" }

// retriesDefaults says each settable policy's own number of retries:
// "twilio 1, twilio-docs 1".
func retriesDefaults() string {
	var out []string
	cat := policies.Default()
	for _, n := range cat.Settable() {
		if p, err := cat.Lookup(n); err == nil && p.Retries != nil {
			out = append(out, fmt.Sprintf("%s %d", n, *p.Retries))
		}
	}
	return strings.Join(out, ", ")
}
