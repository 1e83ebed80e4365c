package report

import (
	"github.com/retrysim/retrysim/policies"
)

// PolicyJSON is the JSON contract of `retrysim policies show NAME --format json`.
type PolicyJSON struct {
	Name          string    `json:"name"`
	Provider      string    `json:"provider"`
	MaxAttempts   int       `json:"max_attempts"`
	DelaysSeconds []float64 `json:"delays_seconds"`
	// OffsetsSeconds is the worked table's elapsed column: when each
	// attempt comes after the first, every attempt failing.
	OffsetsSeconds          []float64    `json:"offsets_seconds"`
	TimeoutSeconds          float64      `json:"timeout_seconds"`
	WindowSeconds           float64      `json:"window_seconds"`
	Disable                 *disableJSON `json:"disable"`
	ManualRedeliverySeconds float64      `json:"manual_redelivery_seconds"`
	Source                  string       `json:"source"`
	Notes                   string       `json:"notes"`

	// Added to the contract: the status rules.
	Summary               string          `json:"summary"`
	ConnectTimeoutSeconds float64         `json:"connect_timeout_seconds"`
	FollowRedirects       int             `json:"follow_redirects"`
	SuccessStatuses       []int           `json:"success_statuses"` // empty: any 2xx
	RetryOn               []string        `json:"retry_on"`         // empty: every failure
	Stop                  []stopJSON      `json:"stop"`
	RetryAfter            *retryAfterJSON `json:"retry_after"`
	URLOverrides          bool            `json:"url_overrides"`
	// SignatureProbeExpect is the status the provider's invalid-signature
	// probe must get, 0 when it sends none.
	SignatureProbeExpect int `json:"signature_probe_expect,omitempty"`
	// SignatureToleranceSeconds is how old a signed timestamp a careful
	// handler accepts, 0 when the scheme signs none.
	SignatureToleranceSeconds float64  `json:"signature_tolerance_seconds"`
	EventTypes                []string `json:"event_types"` // empty: any
	DefaultEventType          string   `json:"default_event_type"`
	DedupField                string   `json:"dedup_field"`
	// Facts are the facts the built-in policy of this name states, each
	// with its source (policies/facts.yaml); empty for a policy of the
	// user's own.
	Facts []factJSON `json:"facts"`
}

// factJSON is one row of policies/facts.yaml.
type factJSON struct {
	Fact       string `json:"fact"`
	Value      string `json:"value"`
	Basis      string `json:"basis"`
	Source     string `json:"source"`
	Checked    string `json:"checked"`
	Secondhand bool   `json:"secondhand"`
}

type disableJSON struct {
	ConsecutiveFailures int     `json:"consecutive_failures"`
	WithinSeconds       float64 `json:"within_seconds"`
	// Added to the contract: the other forms of the rule.
	FailureRate       float64 `json:"failure_rate,omitempty"`
	MinAttempts       int     `json:"min_attempts,omitempty"`
	FailingForSeconds float64 `json:"failing_for_seconds,omitempty"`
	Text              string  `json:"text"`
}

type stopJSON struct {
	Header  string `json:"header,omitempty"`
	Value   string `json:"value,omitempty"`
	Status  int    `json:"status,omitempty"`
	Disable bool   `json:"disable"`
}

type retryAfterJSON struct {
	Statuses   []int   `json:"statuses"`
	MaxSeconds float64 `json:"max_seconds"`
}

// NewPolicyJSON gives p in the JSON contract.
func NewPolicyJSON(p *policies.Policy) PolicyJSON {
	out := PolicyJSON{
		Name: p.Name, Provider: p.Provider, MaxAttempts: p.MaxAttempts(), DelaysSeconds: []float64{},
		TimeoutSeconds: p.Timeout.D().Seconds(), WindowSeconds: p.Window().Seconds(),
		ManualRedeliverySeconds: p.ManualRedelivery.D().Seconds(), Source: p.Source, Notes: p.Notes,
	}
	for _, d := range p.Delays() {
		out.DelaysSeconds = append(out.DelaysSeconds, d.Seconds())
	}
	for n := 1; n <= p.MaxAttempts(); n++ {
		out.OffsetsSeconds = append(out.OffsetsSeconds, p.Offset(n).Seconds())
	}
	if p.Disable != nil {
		out.Disable = &disableJSON{ConsecutiveFailures: p.Disable.ConsecutiveFailures, WithinSeconds: p.Disable.Within.D().Seconds(),
			FailureRate: p.Disable.FailureRate, MinAttempts: p.Disable.MinAttempts,
			FailingForSeconds: p.Disable.FailingFor.D().Seconds(), Text: p.Disable.String()}
	}
	out.Summary, out.ConnectTimeoutSeconds, out.FollowRedirects = p.Summary, p.ConnectTimeout.D().Seconds(), p.FollowRedirects
	out.SuccessStatuses, out.RetryOn, out.Stop = nonNil(p.Success), nonNil(p.RetryOn), []stopJSON{}
	for _, s := range p.Stop {
		out.Stop = append(out.Stop, stopJSON{Header: s.Header, Value: s.Value, Status: s.Status, Disable: s.Disable})
	}
	if p.RetryAfter != nil {
		limit := p.RetryAfter.Max.D()
		if limit == 0 {
			limit = policies.DefaultRetryAfterMax
		}
		out.RetryAfter = &retryAfterJSON{Statuses: nonNil(p.RetryAfter.Statuses), MaxSeconds: limit.Seconds()}
	}
	out.URLOverrides = p.URLOverrides
	if p.SignatureProbe != nil {
		out.SignatureProbeExpect = p.SignatureProbe.Expect
	}
	if s, ok := policies.SchemeOf(p.Wire()); ok {
		out.SignatureToleranceSeconds = s.Tolerance.Seconds()
	}
	w := p.Wire()
	out.EventTypes, out.DedupField = nonNil(policies.EventTypes(w)), w.DedupField()
	out.DefaultEventType = p.EventType
	if out.DefaultEventType == "" {
		out.DefaultEventType = w.DefaultEventType()
	}
	out.Facts = []factJSON{}
	for _, f := range policies.FactsOf(p.Name) {
		out.Facts = append(out.Facts, factJSON{Fact: f.Fact, Value: f.Value, Basis: f.Basis, Source: f.Source, Checked: f.Checked, Secondhand: f.Secondhand()})
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
