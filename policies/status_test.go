package policies

import (
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSucceeded(t *testing.T) {
	tests := []struct {
		policy string
		status int
		want   bool
	}{
		{"stripe", 200, true}, {"stripe", 204, true}, {"stripe", 299, true}, {"stripe", 301, false}, {"stripe", 404, false},
		{"zoom", 200, true}, {"zoom", 204, true}, {"zoom", 201, false}, {"zoom", 202, false},
		{"discord-events", 204, true}, {"discord-events", 200, false},
	}
	for _, tc := range tests {
		p := mustLookup(t, tc.policy)
		if got := p.Succeeded(tc.status); got != tc.want {
			t.Errorf("%s.Succeeded(%d) = %v, want %v", tc.policy, tc.status, got, tc.want)
		}
	}
}

func TestStopSignal(t *testing.T) {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	tests := []struct {
		name     string
		policy   string
		status   int
		header   http.Header
		stop     bool
		disables bool
	}{
		{"slack no-retry", "slack", 500, h("X-Slack-No-Retry", "1"), true, false},
		{"slack no-retry 0", "slack", 500, h("X-Slack-No-Retry", "0"), false, false},
		{"slack plain 500", "slack", 500, h(), false, false},
		{"svix abort", "svix", 503, h("webhook-delivery", "abort-message"), true, false},
		{"svix abort, other case", "svix", 400, h("Webhook-Delivery", "Abort-Message"), true, false},
		{"standard 410", "standard-webhooks", 410, h(), true, true},
		{"standard 404", "standard-webhooks", 404, h(), false, false},
		{"stripe ignores slack's header", "stripe", 500, h("X-Slack-No-Retry", "1"), false, false},
		{"no answer, no signal", "slack", 0, h("X-Slack-No-Retry", "1"), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustLookup(t, tc.policy)
			rule, ok := p.StopSignal(tc.status, tc.header)
			if ok != tc.stop || rule.Disable != tc.disables {
				t.Errorf("StopSignal = %+v, %v; want stop %v, disable %v", rule, ok, tc.stop, tc.disables)
			}
		})
	}
}

func TestRetryAfterWait(t *testing.T) {
	p := mustLookup(t, "standard-webhooks")
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		status int
		value  string
		want   time.Duration
		ok     bool
	}{
		{429, "120", 2 * time.Minute, true},
		{502, now.Add(time.Hour).Format(http.TimeFormat), time.Hour, true},
		{504, "999999999", Day, true}, // capped
		{503, "120", 0, false},        // not a throttling status for this policy
		{500, "120", 0, false},
		{429, "soon", 0, false},
		{429, "-5", 0, false},
		{429, "", 0, false},
	}
	for _, tc := range tests {
		h := http.Header{}
		if tc.value != "" {
			h.Set("Retry-After", tc.value)
		}
		got, ok := p.RetryAfterWait(tc.status, h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("RetryAfterWait(%d, %q) = %s, %v; want %s, %v", tc.status, tc.value, got, ok, tc.want, tc.ok)
		}
	}
	stripe := mustLookup(t, "stripe")
	if _, ok := stripe.RetryAfterWait(429, http.Header{"Retry-After": {"60"}}, now); ok {
		t.Error("stripe honours Retry-After, but its policy does not say so")
	}
}

func TestRetriedClasses(t *testing.T) {
	docs := mustLookup(t, "twilio-docs")
	for _, tc := range []struct {
		status  int
		reached bool
		want    bool
	}{{0, false, true}, {0, true, false}, {500, true, false}, {404, true, false}} {
		if got := docs.Retried(FailureClass(tc.status, tc.reached)); got != tc.want {
			t.Errorf("twilio-docs retries %d (reached %v) = %v, want %v", tc.status, tc.reached, got, tc.want)
		}
	}
	stripe := mustLookup(t, "stripe")
	if !stripe.Retried(Fail4xx) {
		t.Error("stripe does not retry a 4xx")
	}
}

func TestWithURLOverrides(t *testing.T) {
	base := mustLookup(t, "twilio-docs")
	p, err := base.WithURLOverrides("http://127.0.0.1:3000/sms#rc=3&rp=5xx,rt&ct=1000&rt=5000&tt=15000")
	if err != nil {
		t.Fatal(err)
	}
	if p.MaxAttempts() != 4 {
		t.Errorf("rc=3: %d attempts, want 4", p.MaxAttempts())
	}
	if p.ConnectTimeout.D() != time.Second || p.Timeout.D() != 6*time.Second {
		t.Errorf("ct=1000 rt=5000 tt=15000: connect %s, timeout %s; want 1s and 6s (ct+rt)", p.ConnectTimeout, p.Timeout)
	}
	if !p.Retried(Fail5xx) || !p.Retried(FailRead) || p.Retried(Fail4xx) || p.Retried(FailConnect) {
		t.Errorf("rp=5xx,rt: retry_on %v", p.RetryOn)
	}
	if base.MaxAttempts() != 2 || len(base.RetryOn) != 1 {
		t.Error("WithURLOverrides changed the policy it was called on")
	}
	if q, _ := base.WithURLOverrides("http://127.0.0.1:3000/sms#tt=2000"); q.Timeout.D() != 2*time.Second {
		t.Errorf("tt=2000: timeout %s", q.Timeout)
	}
	if q, _ := mustLookup(t, "stripe").WithURLOverrides("http://127.0.0.1/x#rc=0"); q.MaxAttempts() != 16 {
		t.Error("a policy without url_overrides read the fragment")
	}
	for _, bad := range []string{"#rc=9", "#rc=x", "#rp=3xx", "#ct=50", "#tt=20000", "#nope=1", "#rc=6"} {
		_, err := base.WithURLOverrides("http://127.0.0.1/x" + bad)
		if !errors.Is(err, ErrBadOverride) {
			t.Errorf("%s: err %v, want ErrBadOverride", bad, err)
			continue
		}
		key := strings.TrimPrefix(strings.Split(bad, "=")[0], "#")
		if !strings.Contains(err.Error(), key) {
			t.Errorf("%s: error %q does not name %s", bad, err, key)
		}
	}
}

func TestDisableRuleValidation(t *testing.T) {
	for _, tc := range []struct {
		rule DisableRule
		ok   bool
	}{
		{DisableRule{ConsecutiveFailures: 3}, true},
		{DisableRule{FailureRate: 0.95, Within: Duration(time.Hour), MinAttempts: 10}, true},
		{DisableRule{FailingFor: Duration(Day)}, true},
		{DisableRule{}, false},
		{DisableRule{FailureRate: 0.95}, false},
		{DisableRule{FailureRate: 1.5, Within: Duration(time.Hour)}, false},
		{DisableRule{FailureRate: math.NaN(), Within: Duration(time.Hour)}, false},
		{DisableRule{ConsecutiveFailures: 3, FailingFor: Duration(Day)}, false},
		{DisableRule{ConsecutiveFailures: 3, MinAttempts: 5}, false},
	} {
		if got := len(tc.rule.validate()) == 0; got != tc.ok {
			t.Errorf("%+v valid = %v, want %v (%v)", tc.rule, got, tc.ok, tc.rule.validate())
		}
	}
}
