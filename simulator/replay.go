package simulator

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/capture"
)

// Replay defaults and caps.
const (
	DefaultReplayTimes = 10
	MaxReplayTimes     = 10_000
)

// ReplayConfig describes a replay: one captured delivery sent again and
// again, as a provider's retries would send it.
type ReplayConfig struct {
	// Capture is the delivery to send. Required.
	Capture capture.Request
	// Policy gives the schedule, the timeout and the redirect rule. The zero
	// Policy means the built-in policy of the provider the capture's
	// signature headers name.
	Policy policies.Policy
	// URL is where to send; empty means the capture's own URL. At most one
	// of URL and Handler.
	URL string
	// Handler is an in-process target: requests go through ServeHTTP.
	Handler http.Handler
	// Times is how many times to send; 0 means DefaultReplayTimes.
	Times int
	// Concurrent sends them all at once instead of on the schedule.
	Concurrent bool
	// Secret, when set, re-signs every send with a fresh signature (and a
	// fresh timestamp where the provider's scheme has one). Without it the
	// captured signature headers are sent as they are.
	Secret string
	// Effects, when set, is asked before the replay and after every send
	// (after all of them, when Concurrent) how often the handler processed
	// each event.
	Effects EffectsFunc
	// EffectsExact says Effects answers only once the handler's work is
	// done, as in Config: it is read once after the last send.
	EffectsExact bool
	// SettleLimit and SettleQuiet bound the wait for a handler behind a URL to
	// finish its work after the last send, as in Config: the oracle is read
	// until it has reported the event (when a send was accepted) and not
	// changed for SettleQuiet, for at most SettleLimit.
	SettleLimit, SettleQuiet time.Duration
	// Start is the virtual time of the first send; zero means DefaultStart.
	Start time.Time
	// WallClock gives signature timestamps and measures latency; nil means
	// the real clock.
	WallClock clockwork.Clock
	// AllowRemote lets the replay connect to addresses that are not
	// loopback.
	AllowRemote bool
	// TLS configures HTTPS targets.
	TLS *tls.Config
	// Client, when set, replaces the client Replay builds.
	Client *http.Client
}

// ReplaySend is what one send came to.
type ReplaySend struct {
	// N is the send's number, from 1.
	N int `json:"n"`
	// Time is the send's virtual time, sent in the Retrysim-Virtual-Time
	// header.
	Time time.Time `json:"time"`
	// AtSeconds is the virtual time since the first send.
	AtSeconds float64 `json:"at_seconds"`
	// PastSchedule says the policy would not have sent this attempt: its
	// schedule has fewer attempts; further sends keep its last delay.
	PastSchedule bool `json:"past_schedule,omitempty"`
	// Status is the handler's answer, 0 when none came.
	Status int `json:"status"`
	// Reached says whether the request reached the handler.
	Reached bool `json:"reached_handler"`
	// LatencyMS is the real time the answer took.
	LatencyMS float64 `json:"latency_ms"`
	// Error is the transport error, if any.
	Error string `json:"error,omitempty"`
	// Writes is how many times the handler processed the event during this
	// send, by the oracle; -1 when unknown (no oracle, or concurrent sends).
	Writes int `json:"writes"`
	// reason is Slack's retry reason for the send after this one
	// (resendReason of the send as a run's attempt would be recorded).
	reason string
}

// OK reports whether the handler answered 2xx.
func (s *ReplaySend) OK() bool { return policies.Is2xx(s.Status) }

// ReplayResult is everything a replay observed.
type ReplayResult struct {
	Provider   string `json:"provider"`
	Policy     string `json:"policy"`
	DedupID    string `json:"dedup_id"`
	DedupField string `json:"dedup_field"`
	Target     string `json:"target"`
	Times      int    `json:"times"`
	Concurrent bool   `json:"concurrent"`
	// Resigned says every send carried a fresh signature made with the
	// given secret.
	Resigned bool `json:"resigned"`
	// Timestamped says the provider's signature carries a timestamp, so a
	// captured signature goes stale.
	Timestamped bool `json:"signature_timestamped"`
	// SignatureHeaders are the headers re-signing replaces.
	SignatureHeaders []string     `json:"signature_headers"`
	Sends            []ReplaySend `json:"sends"`
	// EffectsKnown says the oracle answered every time it was asked.
	EffectsKnown bool   `json:"effects_known"`
	EffectsError string `json:"effects_error,omitempty"`
	// Before and After are the oracle's counts for the dedup id before the
	// first send and after the last.
	Before int `json:"effects_before"`
	After  int `json:"effects_after"`
	// HandlersRunning is the most in-process handler calls still running
	// when the writes were counted, after waiting one timeout for them:
	// their writes may be missing from the counts.
	HandlersRunning int `json:"handlers_running,omitempty"`
	// EffectsUnsettled says a handler behind a URL was cut off and the
	// oracle was still changing (or could not be read again) when
	// retrysim stopped waiting for it: a write may be missing.
	EffectsUnsettled bool `json:"effects_unsettled,omitempty"`
	// SettleS is the real time, in seconds, the oracle was read for after
	// the last send until its answer settled (handlers behind a URL).
	SettleS float64 `json:"settle_seconds,omitempty"`
}

// Replay sends a captured delivery cfg.Times times to the target: on the
// policy's schedule, one after another on virtual time (send n at the time
// attempt n would come if every earlier one failed; no waiting), or all at
// once with Concurrent. The dedup id and the body never change; with a
// Secret each send is signed afresh. The effects oracle, asked before and
// after each send, tells which sends wrote.
func Replay(ctx context.Context, cfg ReplayConfig) (*ReplayResult, error) {
	p, err := newReplay(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Client == nil {
		defer p.client.CloseIdleConnections()
	}
	return p.run(ctx)
}

type replay struct {
	cfg    ReplayConfig
	wire   policies.Wire
	client *http.Client
	target string // where requests go
	signed string // the URL a provider signs
	event  policies.Event
	// replace are the captured headers each send writes afresh, as the
	// wire's scheme declares them: the signature and its timestamp when
	// re-signing, and those that say which attempt a send is. reason is
	// Slack's retry reason for the next send (resendReason).
	replace []string
	reason  string
	res     ReplayResult
	clock   *clockwork.FakeClock
	start   time.Time
	// cutOff is when the latest send that reached a handler behind a URL
	// and got no answer was cut off, zero when none is pending: that
	// handler may still be writing when the oracle is next read.
	cutOff time.Time
}

func newReplay(ctx context.Context, cfg *ReplayConfig) (*replay, error) {
	c := &cfg.Capture
	if c.Method == "" {
		return nil, fmt.Errorf("%w: no captured request", ErrConfig)
	}
	if cfg.Times == 0 {
		cfg.Times = DefaultReplayTimes
	}
	if err := resolveSettle(&cfg.SettleLimit, &cfg.SettleQuiet); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if err := CheckReplayTimes(cfg.Times); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if cfg.URL != "" && cfg.Handler != nil {
		return nil, fmt.Errorf("%w: give a URL or a Handler, not both", ErrConfig)
	}
	if cfg.WallClock == nil {
		cfg.WallClock = clockwork.NewRealClock()
	}
	r := &replay{cfg: *cfg}
	if err := r.choosePolicy(); err != nil {
		return nil, err
	}
	if err := r.chooseTarget(ctx); err != nil {
		return nil, err
	}
	id, err := r.wire.DedupID(c.Header, c.Body)
	if err != nil {
		return nil, fmt.Errorf("%w: the capture has no dedup id where %s puts it (%s): %w", ErrConfig, r.wire.Name(), r.wire.DedupField(), err)
	}
	if err := CheckDedupID(id); err != nil {
		return nil, fmt.Errorf("%w: the capture's %s: %w", ErrConfig, r.wire.DedupField(), err)
	}
	r.event = policies.Event{ID: id, Type: r.wire.DefaultEventType()}
	scheme, _ := policies.SchemeOf(r.wire)
	sigs := scheme.Signed()
	r.replace = scheme.Resent()
	if cfg.Secret == "" {
		// Without a secret the captured signature is sent as it is.
		r.replace = slices.DeleteFunc(r.replace, func(k string) bool { return slices.Contains(sigs, k) })
	}
	pol := &r.cfg.Policy
	r.client = cfg.Client
	if r.client == nil {
		r.client = guardedClient(clientOptions{
			timeout: pol.Timeout.D(), connect: pol.ConnectTimeout.D(),
			allowRemote: cfg.AllowRemote, tls: cfg.TLS, handler: cfg.Handler,
			hosts: []string{hostOf(r.target)},
		})
	}
	r.start = cfg.Start
	if r.start.IsZero() {
		r.start = DefaultStart()
	}
	r.clock = clockwork.NewFakeClockAt(r.start)
	r.res = ReplayResult{
		Provider: r.wire.Name(), Policy: pol.Name, DedupID: id, DedupField: r.wire.DedupField(),
		Target: r.target, Times: cfg.Times, Concurrent: cfg.Concurrent, Resigned: cfg.Secret != "",
		Timestamped: scheme.Timestamp != "", SignatureHeaders: sigs,
	}
	if cfg.Handler != nil {
		r.res.Target = "in-process http.Handler"
	}
	return r, nil
}

// choosePolicy takes the configured policy, or the built-in one of the
// provider whose signature headers the capture carries, and checks that the
// two agree.
func (r *replay) choosePolicy() error {
	detected, derr := DetectWire(r.cfg.Capture)
	if r.cfg.Policy.Wire() != nil {
		r.wire = r.cfg.Policy.Wire()
		if derr == nil && detected.Name() != r.wire.Name() {
			return fmt.Errorf("%w: the capture carries %s's signature headers, but policy %s is %s's", ErrConfig, detected.Name(), r.cfg.Policy.Name, r.wire.Name())
		}
		return nil
	}
	if derr != nil {
		return derr
	}
	pol, err := policies.Lookup(detected.Name())
	if err != nil {
		return fmt.Errorf("%w: the capture is a %s delivery but there is no policy named %s; name one", ErrConfig, detected.Name(), detected.Name())
	}
	r.cfg.Policy, r.wire = pol, detected
	return nil
}

// chooseTarget settles where requests go and checks it is allowed.
func (r *replay) chooseTarget(ctx context.Context) error {
	if r.cfg.Handler != nil {
		u, _ := url.Parse(r.cfg.Capture.URL)
		path := "/"
		if u != nil && u.Path != "" {
			path = u.RequestURI()
		}
		r.target = "http://in-process" + path
		r.signed = r.target
		return nil
	}
	r.target = r.cfg.URL
	if r.target == "" {
		r.target = r.cfg.Capture.URL
		if !strings.Contains(r.target, "://") {
			return fmt.Errorf("%w: the capture has no host (only the path %s): give the URL to send to", ErrConfig, truncate(r.target, 60))
		}
	}
	if err := CheckTarget(ctx, r.target, r.cfg.AllowRemote); err != nil {
		return err
	}
	r.signed = signedURL(r.target)
	return nil
}

// DetectWire tells which provider sent a captured delivery, by the
// signature headers it carries: the provider with the most of its own
// signature headers present, when there is exactly one.
func DetectWire(c capture.Request) (policies.Wire, error) {
	var best []string
	bestN := 0
	for _, name := range policies.WireNames() {
		sigs := schemeHeaders()[name].signed
		n := 0
		for _, h := range sigs {
			if c.Header.Get(h) != "" {
				n++
			}
		}
		switch {
		case n > bestN:
			best, bestN = []string{name}, n
		case n == bestN && n > 0:
			best = append(best, name)
		}
	}
	if len(best) > 1 {
		// Two products that sign alike (Discord's interactions and webhook
		// events, Stripe's snapshot and thin events): the one whose body
		// carries its dedup id and that claims the delivery as its own.
		var fit []string
		for _, name := range best {
			if w, _ := policies.WireFor(name); w != nil {
				if _, err := w.DedupID(c.Header, c.Body); err == nil && policies.Claims(w, c.Header, c.Body) {
					fit = append(fit, name)
				}
			}
		}
		best = fit
	}
	if bestN == 0 || len(best) != 1 {
		return nil, fmt.Errorf("%w: cannot tell the provider from the capture's headers (no signature header of %s); name the provider", ErrConfig, strings.Join(policies.WireNames(), ", "))
	}
	w, _ := policies.WireFor(best[0])
	return w, nil
}

// offset is when send n (from 1) happens on the policy's schedule, and
// whether the schedule has that attempt at all.
func (r *replay) offset(n int) (time.Duration, bool) {
	p := &r.cfg.Policy
	attempts := p.MaxAttempts()
	if n <= attempts {
		return p.Offset(n), true
	}
	last := time.Minute
	if d := p.Delays(); len(d) > 0 {
		last = d[len(d)-1]
	}
	return p.Offset(attempts) + time.Duration(n-attempts)*last, false
}

func (r *replay) run(ctx context.Context) (*ReplayResult, error) {
	r.res.Sends = make([]ReplaySend, r.cfg.Times)
	before, known := r.count(ctx, false)
	r.res.Before, r.res.EffectsKnown = before, known
	prev := before
	if r.cfg.Concurrent {
		r.sendAll(ctx)
		for i := range r.res.Sends {
			r.noteCutOff(&r.res.Sends[i])
		}
	} else {
		for i := range r.res.Sends {
			if ctx.Err() != nil {
				return &r.res, ctx.Err()
			}
			off, inSchedule := r.offset(i + 1)
			if d := r.start.Add(off).Sub(r.clock.Now()); d > 0 {
				r.clock.Advance(d)
			}
			s := &r.res.Sends[i]
			*s = r.send(ctx, i+1)
			s.PastSchedule = !inSchedule
			s.Writes = -1
			r.reason = s.reason
			r.noteCutOff(s)
			if r.res.EffectsKnown {
				n, ok := r.count(ctx, i == len(r.res.Sends)-1)
				if ok {
					s.Writes, prev = n-prev, n
				}
				r.res.EffectsKnown = ok
			}
		}
	}
	if r.res.EffectsKnown {
		if r.cfg.Concurrent {
			r.res.After, r.res.EffectsKnown = r.count(ctx, true)
		} else {
			r.res.After = prev
		}
	}
	return &r.res, nil
}

// noteCutOff remembers a send that reached a handler behind a URL and got
// no answer: the server goes on after its client gave up, and its write
// belongs to this send, not the next one. (An in-process handler's calls
// are waited for directly.)
func (r *replay) noteCutOff(s *ReplaySend) {
	if s.Reached && s.Status == 0 && callsOf(r.client) == nil {
		r.cutOff = r.cfg.WallClock.Now()
	}
}

// sendAll sends every request at once: each is built and signed first, then
// all are released together so that they overlap in the handler.
func (r *replay) sendAll(ctx context.Context) {
	var wg sync.WaitGroup
	ready := make(chan struct{})
	for i := range r.res.Sends {
		req, err := r.request(i + 1)
		wg.Go(func() {
			<-ready
			if err != nil {
				r.res.Sends[i] = ReplaySend{N: i + 1, Time: r.start, Error: describe(err), Writes: -1, reason: resendReason(&outcome{outcome: ConnectionFailed})}
				return
			}
			r.res.Sends[i] = r.exchange(ctx, req, i+1)
		})
	}
	close(ready)
	wg.Wait()
}

func (r *replay) send(ctx context.Context, n int) ReplaySend {
	req, err := r.request(n)
	if err != nil {
		return ReplaySend{N: n, Time: r.clock.Now(), Error: describe(err), reason: resendReason(&outcome{outcome: ConnectionFailed})}
	}
	return r.exchange(ctx, req, n)
}

func (r *replay) exchange(ctx context.Context, req *http.Request, n int) ReplaySend {
	a := exchange(ctx, r.client, r.cfg.WallClock, req, r.cfg.Policy.FollowRedirects)
	// Classified as a run's attempt is, for the retry reason of the next.
	var o outcome
	received(&o, &a, &r.cfg.Policy)
	countDelivered(&o, &r.cfg.Policy)
	now := r.clock.Now()
	s := ReplaySend{
		N: n, Time: now, AtSeconds: now.Sub(r.start).Seconds(), Status: a.status, Reached: a.reached,
		LatencyMS: float64(a.latency.Microseconds()) / 1000, Error: describe(a.err), Writes: -1,
		reason: resendReason(&o),
	}
	if a.timeout {
		s.Error = fmt.Sprintf("no answer within %s's %s timeout", r.cfg.Policy.Name, policies.FormatDuration(r.cfg.Policy.Timeout.D()))
	}
	return s
}

// request builds send n: the captured method, headers and body, with the
// headers of the attempt it stands for written afresh (the signature only
// when re-signing) and the virtual time.
func (r *replay) request(n int) (*http.Request, error) {
	c := &r.cfg.Capture
	req, err := http.NewRequest(c.Method, r.target, bytes.NewReader(c.Body))
	if err != nil {
		return nil, err
	}
	fresh := http.Header{}
	if len(r.replace) > 0 {
		// Send n stands for attempt n of the schedule: it carries that
		// attempt's headers (no retry headers on the first), not the
		// captured attempt's, with the reason the send before it failed.
		reason := r.reason
		if r.cfg.Concurrent {
			reason = ""
		}
		r.wire.Header(fresh, policies.Delivery{
			Event: r.event, N: n, Body: c.Body, URL: r.signed, Secret: r.cfg.Secret,
			SignedAt: policies.SigningTime(r.cfg.WallClock.Now(), n, r.cfg.Times), RetryReason: reason,
		})
	}
	fresh.Set(VirtualTimeHeader, r.clock.Now().UTC().Format(time.RFC3339Nano))
	req.Header = overlay(c.Header, fresh, r.replace)
	return req, nil
}

// count asks the oracle how often the handler processed the event. After
// the last send (final) a handler behind a URL is given time to finish its
// work, as in run (see settle.go); after the others, only a handler cut off
// is waited for, so its write is credited to the send that caused it.
func (r *replay) count(ctx context.Context, final bool) (int, bool) {
	if r.cfg.Effects == nil {
		return 0, false
	}
	timeout := r.cfg.Policy.Timeout.D()
	var m map[string]int
	var err error
	switch calls := callsOf(r.client); {
	case calls != nil:
		r.res.HandlersRunning = max(r.res.HandlersRunning, waitForCalls(ctx, calls, r.cfg.WallClock, timeout))
		m, err = queryOracle(ctx, r.cfg.Effects, r.cfg.SettleLimit)
	case final && r.cfg.EffectsExact && r.cutOff.IsZero():
		m, err = queryOracle(ctx, r.cfg.Effects, r.cfg.SettleLimit)
	case final || !r.cutOff.IsZero():
		rule := settleRule{clock: r.cfg.WallClock, limit: timeout, quiet: settleEvery(timeout), fixed: true}
		if final && !r.cfg.EffectsExact {
			rule.limit, rule.quiet, rule.fixed = r.cfg.SettleLimit, r.cfg.SettleQuiet, false
			accepted := slices.ContainsFunc(r.res.Sends, func(s ReplaySend) bool { return s.OK() })
			rule.covered = func(m map[string]int) bool { return !accepted || m[r.event.ID] > r.res.Before }
		}
		if !r.cutOff.IsZero() {
			rule.notBefore = r.cutOff.Add(timeout)
			rule.limit += timeout
		}
		var s settled
		s, err = rule.read(ctx, r.cfg.Effects.Read)
		m = s.m
		r.res.EffectsUnsettled = r.res.EffectsUnsettled || s.moving
		if final {
			r.res.SettleS = s.waited.Seconds()
		}
		r.cutOff = time.Time{}
	default:
		m, err = queryOracle(ctx, r.cfg.Effects, r.cfg.SettleLimit)
	}
	if err != nil {
		r.res.EffectsError = err.Error()
		return 0, false
	}
	return m[r.event.ID], true
}
