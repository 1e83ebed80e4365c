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

// retriesDefaults says each settable policy's own number of retries and
// the most its written schedule allows: "twilio 1 in 0..3, twilio-docs 1
// in 0..5".
func retriesDefaults() string {
	var out []string
	cat := policies.Default()
	for _, n := range cat.Settable() {
		p, err := cat.Lookup(n)
		if err != nil || p.Retries == nil {
			continue
		}
		if delays, err := p.Schedule.Expand(); err == nil {
			out = append(out, fmt.Sprintf("%s %d in 0..%d", n, *p.Retries, len(delays)))
		}
	}
	return strings.Join(out, ", ")
}
