package policies

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// StopRule is an answer that ends a provider's attempts: either the retries
// of one event (Slack's X-Slack-No-Retry: 1, Svix's webhook-delivery:
// abort-message) or, with Disable, the whole endpoint (a Standard Webhooks
// 410 Gone). Give Header (and Value), or Status, or both.
type StopRule struct {
	// Header is a response header that must be present.
	Header string `yaml:"header,omitempty"`
	// Value is the header's value, compared without regard to case; empty
	// means any value.
	Value string `yaml:"value,omitempty"`
	// Status is the response status that must be seen; 0 means any.
	Status int `yaml:"status,omitempty"`
	// Disable makes the rule disable the endpoint instead of stopping one
	// event's retries.
	Disable bool `yaml:"disable,omitempty"`
}

// matches reports whether an answer with status and header h fits the rule.
func (s *StopRule) matches(status int, h http.Header) bool {
	if s.Status != 0 && s.Status != status {
		return false
	}
	if s.Header != "" {
		vals := h.Values(s.Header)
		if len(vals) == 0 {
			return false
		}
		if s.Value != "" && !slices.ContainsFunc(vals, func(v string) bool { return strings.EqualFold(strings.TrimSpace(v), s.Value) }) {
			return false
		}
	}
	return true
}

// String says the rule the way a report shows it, e.g. "X-Slack-No-Retry: 1"
// or "410".
func (s StopRule) String() string {
	var parts []string
	if s.Status != 0 {
		parts = append(parts, strconv.Itoa(s.Status))
	}
	if s.Header != "" {
		v := s.Value
		if v == "" {
			v = "*"
		}
		parts = append(parts, s.Header+": "+v)
	}
	return strings.Join(parts, " with ")
}

// RetryAfterRule says when a provider honours a Retry-After answer header.
type RetryAfterRule struct {
	// Statuses are the answers whose Retry-After counts; empty means any
	// failed answer.
	Statuses []int `yaml:"statuses,omitempty"`
	// Max is the longest wait honoured; 0 means DefaultRetryAfterMax.
	Max Duration `yaml:"max,omitempty"`
}

// DefaultRetryAfterMax is the longest Retry-After honoured when a policy sets
// no max: a handler cannot push an event past a day by itself.
const DefaultRetryAfterMax = Day

// Failure classes, in Twilio's words where it has them: what kind of failure
// an attempt was, for RetryOn.
const (
	Fail3xx     = "3xx" // a redirect the provider does not follow
	Fail4xx     = "4xx"
	Fail5xx     = "5xx"
	FailConnect = "ct"  // the connection failed before the request was sent
	FailRead    = "rt"  // no answer in time, or the connection broke after sending
	FailAll     = "all" // RetryOn only: every failure
)

var failClasses = []string{Fail3xx, Fail4xx, Fail5xx, FailConnect, FailRead, FailAll}

// FailureClass names a failed attempt's class from the status the provider
// saw (0 when none) and whether the request reached the handler.
func FailureClass(status int, reached bool) string {
	switch {
	case Is3xx(status):
		return Fail3xx
	case status >= 400 && status < 500:
		return Fail4xx
	case status >= 500 || (status > 0 && status < 200):
		return Fail5xx
	case !reached:
		return FailConnect
	default:
		return FailRead
	}
}

// Is2xx reports whether status is a 2xx answer: the one test every
// package makes of a success status.
func Is2xx(status int) bool { return status >= 200 && status < 300 }

// Is3xx reports whether status is a redirect, which no provider follows.
func Is3xx(status int) bool { return status >= 300 && status < 400 }

// redirectStatuses are the statuses whose Location a client goes to: the
// redirects a provider that follows redirects follows, and those a
// scenario's redirect fault may answer with.
var redirectStatuses = []int{
	http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
	http.StatusTemporaryRedirect, http.StatusPermanentRedirect,
}

// IsRedirect reports whether status sends a client to its Location (one
// of RedirectStatuses).
func IsRedirect(status int) bool { return slices.Contains(redirectStatuses, status) }

// RedirectStatuses lists the statuses IsRedirect accepts, in order.
func RedirectStatuses() []int { return slices.Clone(redirectStatuses) }

// Succeeded reports whether the provider counts status as a delivery.
func (p *Policy) Succeeded(status int) bool {
	if len(p.Success) == 0 {
		return Is2xx(status)
	}
	return slices.Contains(p.Success, status)
}

// Retried reports whether the provider retries a failure of class (see
// FailureClass).
func (p *Policy) Retried(class string) bool {
	return len(p.RetryOn) == 0 || slices.Contains(p.RetryOn, FailAll) || slices.Contains(p.RetryOn, class)
}

// StopSignal returns the first stop rule that an answer (status and headers
// as the provider received them) fits.
func (p *Policy) StopSignal(status int, h http.Header) (StopRule, bool) {
	if status == 0 {
		return StopRule{}, false
	}
	for _, s := range p.Stop {
		if s.matches(status, h) {
			return s, true
		}
	}
	return StopRule{}, false
}

// CanDisableAtOnce reports whether a single answer can disable the endpoint
// (a stop rule with Disable), so that no two attempts may be in flight
// together without risking one sent after the endpoint is gone.
func (p *Policy) CanDisableAtOnce() bool {
	return slices.ContainsFunc(p.Stop, func(s StopRule) bool { return s.Disable })
}

// RetryAfterWait returns the wait a Retry-After header asks for, capped at
// the rule's max, when the policy honours it for status. An HTTP-date is
// measured from now, the wall-clock time the answer arrived.
func (p *Policy) RetryAfterWait(status int, h http.Header, now time.Time) (time.Duration, bool) {
	ra := p.RetryAfter
	if ra == nil || status == 0 || (len(ra.Statuses) > 0 && !slices.Contains(ra.Statuses, status)) {
		return 0, false
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	var wait time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		wait = time.Duration(min(secs, int64(maxRetryAfterSeconds))) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		wait = max(at.Sub(now), 0)
	} else {
		return 0, false
	}
	limit := ra.Max.D()
	if limit == 0 {
		limit = DefaultRetryAfterMax
	}
	return min(wait, limit), true
}

// maxRetryAfterSeconds bounds a Retry-After in seconds before it becomes a
// time.Duration, so a huge value cannot overflow.
const maxRetryAfterSeconds = 1 << 32

func (p *Policy) validateStatus() []error {
	var errs []error
	for _, s := range p.Success {
		if s < 100 || s > 599 {
			errs = append(errs, fmt.Errorf("success: %d is not an HTTP status (100..599)", s))
		}
	}
	for _, c := range p.RetryOn {
		if !slices.Contains(failClasses, c) {
			errs = append(errs, fmt.Errorf("retry_on: %q is not a failure class (valid: %s)", c, joinNames(failClasses)))
		}
	}
	for i, s := range p.Stop {
		if s.Header == "" && s.Status == 0 {
			errs = append(errs, fmt.Errorf("stop[%d]: give a header, a status or both", i))
		}
		if s.Status != 0 && (s.Status < 100 || s.Status > 599) {
			errs = append(errs, fmt.Errorf("stop[%d].status: %d is not an HTTP status (100..599)", i, s.Status))
		}
	}
	if p.RetryAfter != nil {
		for _, s := range p.RetryAfter.Statuses {
			if s < 100 || s > 599 {
				errs = append(errs, fmt.Errorf("retry_after.statuses: %d is not an HTTP status (100..599)", s))
			}
		}
	}
	return errs
}
