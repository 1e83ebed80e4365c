package policies

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrBadOverride is returned, wrapped, for a connection override in a URL
// fragment that cannot be applied.
var ErrBadOverride = errors.New("bad connection override")

// overrideKeys are the connection overrides Twilio reads from the URL
// fragment. edge and sni choose Twilio's infrastructure and change nothing
// here.
var overrideKeys = []string{"rc", "rp", "ct", "rt", "tt", "edge", "sni"}

// WithURLOverrides returns p with the connection overrides in target's
// fragment applied, for a policy with URLOverrides (Twilio):
//
//	rc  retries, 0..5 (and at most the schedule's length)
//	rp  which failures are retried: 4xx, 5xx, ct, rt or all, comma-separated
//	ct  connect timeout in ms, 100..10000
//	rt  read timeout in ms, 100..15000
//	tt  total timeout in ms, 100..15000
//
// The attempt timeout becomes the smaller of tt and ct+rt. The fragment is
// never sent, and never part of the URL the provider signs. A policy without
// URLOverrides, or a URL without a fragment, gives p unchanged.
func (p Policy) WithURLOverrides(target string) (Policy, error) {
	u, err := url.Parse(target)
	if err != nil || !p.URLOverrides || u.Fragment == "" {
		return p, nil
	}
	vals, err := url.ParseQuery(u.Fragment)
	if err != nil {
		return Policy{}, fmt.Errorf("%w: fragment %q is not key=value pairs joined by &", ErrBadOverride, u.Fragment)
	}
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var errs []error
	ms := func(k string, lo, hi int) (time.Duration, bool) {
		n, err := strconv.Atoi(vals.Get(k))
		if err != nil || n < lo || n > hi {
			errs = append(errs, fmt.Errorf("%w: %s=%s (milliseconds, %d..%d)", ErrBadOverride, k, vals.Get(k), lo, hi))
			return 0, false
		}
		return time.Duration(n) * time.Millisecond, true
	}
	total, connect := p.Timeout.D(), p.ConnectTimeout.D()
	read := time.Duration(-1)
	for _, k := range keys {
		switch k {
		case "rc":
			n, err := strconv.Atoi(vals.Get(k))
			if err != nil || n < 0 || n > 5 {
				errs = append(errs, fmt.Errorf("%w: rc=%s (retries, 0..5)", ErrBadOverride, vals.Get(k)))
				continue
			}
			q, err := p.WithRetries(n)
			if err != nil {
				errs = append(errs, fmt.Errorf("%w: rc=%d: %w", ErrBadOverride, n, err))
				continue
			}
			p = q
		case "rp":
			var on []string
			for _, c := range strings.Split(vals.Get(k), ",") {
				c = strings.TrimSpace(c)
				if !slices.Contains([]string{Fail4xx, Fail5xx, FailConnect, FailRead, FailAll}, c) {
					errs = append(errs, fmt.Errorf("%w: rp=%s (valid: 4xx, 5xx, ct, rt, all, comma-separated)", ErrBadOverride, vals.Get(k)))
					on = nil
					break
				}
				on = append(on, c)
			}
			if on != nil {
				p.RetryOn = on
			}
		case "ct":
			if d, ok := ms(k, 100, 10000); ok {
				connect = d
			}
		case "rt":
			if d, ok := ms(k, 100, 15000); ok {
				read = d
			}
		case "tt":
			if d, ok := ms(k, 100, 15000); ok {
				total = d
			}
		case "edge", "sni":
		default:
			errs = append(errs, fmt.Errorf("%w: unknown key %q in the URL fragment (valid: %s)", ErrBadOverride, k, joinNames(overrideKeys)))
		}
	}
	if len(errs) > 0 {
		return Policy{}, errors.Join(errs...)
	}
	if read >= 0 {
		total = min(total, connect+read)
	}
	p.Timeout, p.ConnectTimeout = Duration(total), Duration(connect)
	return p, nil
}

// URLOverrideProblems checks target's connection overrides against each
// of pols in turn (WithURLOverrides) and returns the name of the first
// policy that cannot take them, with each of its problems apart; "" and
// none when every policy takes them.
func URLOverrideProblems(target string, pols []Policy) (string, []error) {
	for _, p := range pols {
		_, err := p.WithURLOverrides(target)
		if err == nil {
			continue
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			return p.Name, j.Unwrap()
		}
		return p.Name, []error{err}
	}
	return "", nil
}
