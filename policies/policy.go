// Package policies describes what webhook providers do when they deliver and
// retry: the schedule, the timeout, what counts as success, when the endpoint
// is disabled, and how each request is shaped and signed.
//
// Policies are data. The built-in catalogue is embedded YAML (one file per
// policy under catalogue/), and every entry carries the source of its numbers.
// A schedule is a pure function of the attempt number. A Policy changes
// only in Init, which validates it and keeps its expanded schedule; after
// that it is read-only and safe to share.
package policies

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Policy is one provider's delivery behaviour, as loaded from the catalogue.
type Policy struct {
	// Name is the catalogue name, e.g. "stripe" or "shopify-2024".
	Name string `yaml:"name"`
	// Provider names the wire format: how requests are shaped and signed.
	Provider string `yaml:"provider"`
	// Summary is a one-line description of the schedule.
	Summary string `yaml:"summary"`
	// Schedule is the retry schedule as written in the catalogue.
	Schedule ScheduleSpec `yaml:"schedule"`
	// Retries, when set, is the default number of retries: the schedule is
	// cut to Retries+1 attempts. Users may raise it up to the schedule's
	// length (Twilio's rc setting).
	Retries *int `yaml:"retries,omitempty"`
	// Timeout is the whole time the provider waits for an answer.
	Timeout Duration `yaml:"timeout"`
	// ConnectTimeout, when set, bounds the TCP (and TLS) connect.
	ConnectTimeout Duration `yaml:"connect_timeout,omitempty"`
	// FollowRedirects is how many redirects the provider follows; 0 means a
	// 3xx is a failed delivery.
	FollowRedirects int `yaml:"follow_redirects,omitempty"`
	// Success lists the statuses that count as delivered; empty means any
	// 2xx (Zoom: 200 and 204 only).
	Success []int `yaml:"success,omitempty"`
	// RetryOn lists the failures that are retried, in Twilio's words: 4xx,
	// 5xx, ct (the connection failed before the request was sent), rt (no
	// answer in time, or the connection broke after it was sent), all.
	// Empty means all.
	RetryOn []string `yaml:"retry_on,omitempty"`
	// Stop lists the answers that stop the retries of an event, or disable
	// the endpoint (X-Slack-No-Retry: 1, webhook-delivery: abort-message,
	// 410 Gone).
	Stop []StopRule `yaml:"stop,omitempty"`
	// RetryAfter, when set, makes the provider honour a Retry-After header:
	// it can lengthen the wait before the next attempt, never shorten it.
	RetryAfter *RetryAfterRule `yaml:"retry_after,omitempty"`
	// URLOverrides says the provider reads connection overrides from the
	// URL fragment (Twilio's #rc=2&rp=all&ct=1000&rt=5000&tt=15000).
	URLOverrides bool `yaml:"url_overrides,omitempty"`
	// EventType is the event sent when the user names none; empty means the
	// wire format's default.
	EventType string `yaml:"event_type,omitempty"`
	// APIVersion is the payload version the provider writes, for wire
	// formats that write several (Stripe: 2026-10-28.endive, the current
	// one, 2026-03-25.dahlia or 2024-06-20); empty means the current one.
	APIVersion string `yaml:"api_version,omitempty"`
	// Disable is the rule by which the provider gives up on the endpoint.
	Disable *DisableRule `yaml:"disable,omitempty"`
	// SignatureProbe, when set, is the provider's own check that the
	// endpoint rejects an invalid signature (Discord): the probe is sent
	// when the endpoint is set up, before any event.
	SignatureProbe *ProbeRule `yaml:"signature_probe,omitempty"`
	// FanOut, when set, says which id a handler keys on when one event
	// reaches it through several subscriptions (see FanOut).
	FanOut *FanOut `yaml:"fan_out,omitempty"`
	// ManualRedelivery is how long after an event a person can still resend it.
	ManualRedelivery Duration `yaml:"manual_redelivery,omitempty"`
	// Source says where the numbers come from.
	Source string `yaml:"source"`
	// Notes say what is assumed and where today's docs differ.
	Notes string `yaml:"notes"`

	delays []time.Duration
}

// ErrUnknownPolicy is returned, wrapped, by Lookup for a name not in the
// catalogue.
var ErrUnknownPolicy = errors.New("unknown policy")

// ErrInvalidPolicy is returned, wrapped, for a policy that does not validate.
var ErrInvalidPolicy = errors.New("invalid policy")

// Init validates p and expands its schedule. Catalogue loading calls it; a
// Policy built by hand must call it before use.
func (p *Policy) Init() error {
	delays, errs := p.check()
	if len(errs) > 0 {
		return fmt.Errorf("%w %q: %w", ErrInvalidPolicy, p.Name, errors.Join(errs...))
	}
	p.delays = delays
	return nil
}

// check validates p and returns its expanded schedule, or its problems,
// each message starting with the key it is about (timeout, schedule,
// disable.failure_rate, stop[1].status) so that a config file's entry can
// point each at its line.
func (p *Policy) check() ([]time.Duration, []error) {
	var errs []error
	if p.Name == "" {
		errs = append(errs, errors.New("name is empty"))
	}
	if _, ok := wires[p.Provider]; !ok {
		errs = append(errs, fmt.Errorf("provider %q has no wire format (valid: %s)", p.Provider, joinNames(WireNames())))
	}
	if p.Timeout <= 0 {
		errs = append(errs, fmt.Errorf("timeout must be positive, got %s", p.Timeout))
	}
	if p.FollowRedirects < 0 || p.FollowRedirects > 10 {
		errs = append(errs, fmt.Errorf("follow_redirects must be 0..10, got %d", p.FollowRedirects))
	}
	if p.Disable != nil {
		errs = append(errs, p.Disable.validate()...)
	}
	if p.SignatureProbe != nil {
		errs = append(errs, p.SignatureProbe.validate()...)
	}
	if p.FanOut != nil {
		errs = append(errs, p.FanOut.validate(wires[p.Provider])...)
	}
	errs = append(errs, p.validateStatus()...)
	if p.EventType != "" && p.Wire() != nil {
		if err := CheckEventType(p.Wire(), p.EventType); err != nil {
			errs = append(errs, fmt.Errorf("event_type: %w", err))
		}
	}
	if p.APIVersion != "" && p.Wire() != nil {
		var versions []string
		if v, ok := p.Wire().(Versioner); ok {
			versions = v.APIVersions()
		}
		if !slices.Contains(versions, p.APIVersion) {
			valid := "none: it writes one"
			if versions != nil {
				valid = joinNames(versions)
			}
			errs = append(errs, fmt.Errorf("api_version %q is not one the %s wire writes (valid: %s)", p.APIVersion, p.Provider, valid))
		}
	}
	delays, err := p.Schedule.Expand()
	if err != nil {
		errs = append(errs, err)
	}
	if p.Retries != nil && err == nil {
		if *p.Retries < 0 || *p.Retries > len(delays) {
			errs = append(errs, fmt.Errorf("retries must be 0..%d for this schedule, got %d", len(delays), *p.Retries))
		} else {
			delays = delays[:*p.Retries]
		}
	}
	return delays, errs
}

// WithRetries returns a copy of p that makes n retries, up to the length of
// its written schedule.
func (p Policy) WithRetries(n int) (Policy, error) {
	p.Retries = &n
	p.delays = nil
	if err := p.Init(); err != nil {
		return Policy{}, err
	}
	return p, nil
}

// MaxAttempts is the number of attempts when every one fails.
func (p *Policy) MaxAttempts() int { return len(p.delays) + 1 }

// Delays returns the waits between attempts: element i is the wait after
// attempt i+1 fails. The slice must not be modified.
func (p *Policy) Delays() []time.Duration { return p.delays }

// Delay returns the wait after attempt n (1-based) fails, and false when
// attempt n was the last.
func (p *Policy) Delay(n int) (time.Duration, bool) {
	if n < 1 || n > len(p.delays) {
		return 0, false
	}
	return p.delays[n-1], true
}

// Offset returns when attempt n (1-based) happens, measured from the first
// attempt, if every earlier attempt failed.
func (p *Policy) Offset(n int) time.Duration {
	var t time.Duration
	for i := 0; i < n-1 && i < len(p.delays); i++ {
		t += p.delays[i]
	}
	return t
}

// Window is the span from the first to the last attempt when all fail: the
// longest time the provider may keep delivering one event by itself.
func (p *Policy) Window() time.Duration { return p.Offset(p.MaxAttempts()) }

// MinDelay is the smallest wait between two attempts of one event, or -1
// when the policy never retries. The engine's lookahead rests on it.
func (p *Policy) MinDelay() time.Duration {
	if len(p.delays) == 0 {
		return -1
	}
	m := p.delays[0]
	for _, d := range p.delays[1:] {
		m = min(m, d)
	}
	return m
}

// Wire returns the wire format that shapes and signs this policy's requests.
func (p *Policy) Wire() Wire { return wires[p.Provider] }
