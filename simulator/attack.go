package simulator

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/scenarios"
)

// staleBy is how far past the provider's tolerance a stale or replayed
// signature's timestamp lies.
const staleBy = time.Minute

// replayAfterAtLeast is how long after the original a replay comes, at the
// least: a common tolerance plus staleBy, also where a scheme has none.
const replayAfterAtLeast = 5*time.Minute + staleBy

// attackResult is what one attack request came to.
type attackResult struct {
	attack        scenarios.Attack
	id            string // the attack's own dedup id
	detail        string
	undetectable  string
	notApplicable string
	probe         bool
	original      int // a replay's original: the handler's answer
	a             answer
}

// attackApplies says whether attack a means anything against the wire's
// signature scheme: notApplicable is why not; undetectable, when set, is
// why only dedup can stop it (the handler may answer 2xx).
func attackApplies(w policies.Wire, a scenarios.Attack) (notApplicable, undetectable string) {
	s, ok := policies.SchemeOf(w)
	if !ok {
		return fmt.Sprintf("the %s wire format does not describe its signature", w.Name()), ""
	}
	name := w.Name()
	switch a.Type {
	case scenarios.AttackTamperedBody:
		switch {
		case s.Covers == policies.CoversNothing:
			return fmt.Sprintf("%s signs nothing (%s is a shared token sent in the clear): no handler can tell a changed body, only HTTPS protects it", name, strings.Join(s.Headers, ", ")), ""
		case s.Covers == policies.CoversParams && a.Change == scenarios.ChangeSpacing:
			return fmt.Sprintf("%s signs the decoded form parameters, not their bytes: a re-encoded body carries the same values and is no forgery", name), ""
		case s.Covers == policies.CoversJSON && a.Change == scenarios.ChangeSpacing:
			return fmt.Sprintf("%s's SDK checks the signature over the parsed JSON written out again, not over the bytes: a re-spaced body carries the same values and is no forgery", name), ""
		}
	case scenarios.AttackStaleTimestamp:
		switch {
		case s.Tolerance == 0 && s.AdvisedTolerance > 0:
			return fmt.Sprintf("%s signs a timestamp but documents no bound on its age, and its libraries check none, so a stale signature is no forgery to %s (see replayed)", name, name), ""
		case s.Tolerance == 0:
			return fmt.Sprintf("%s signs no timestamp a handler can bound, so no signature of it is ever stale (see replayed)", name), ""
		}
	case scenarios.AttackReplayed:
		switch {
		case s.Tolerance == 0 && s.AdvisedTolerance > 0:
			return "", fmt.Sprintf("%s documents no bound on its signed timestamp's age: to its libraries a replay is a retry, so only dedup on the %s stops a second side effect", name, w.DedupField())
		case s.Tolerance == 0:
			return "", fmt.Sprintf("%s signs no timestamp a handler can bound: a replay is byte for byte a retry, so only dedup on the %s stops a second side effect", name, w.DedupField())
		}
	}
	return "", ""
}

// announceAttacks emits, once per run, an attack record for each attack of
// the scenario that the provider's scheme makes pointless, saying why.
func (e *engine) announceAttacks() error {
	if e.cfg.DryRun {
		return nil
	}
	for _, a := range e.cfg.Scenario.Attacks() {
		na, _ := attackApplies(e.wire, a)
		if na == "" {
			continue
		}
		r := e.base
		r.Kind, r.Time, r.Attack, r.AttackChange, r.NotApplicable = KindAttack, e.cfg.Start, a.Type, a.Change, na
		if err := e.emit(r); err != nil {
			return err
		}
	}
	return nil
}

// attacks sends the attacks beside attempt d, one after the other.
func (e *engine) attacks(ctx context.Context, d *due, st eventRef, list []scenarios.Attack) []attackResult {
	var out []attackResult
	for i, a := range list {
		if na, _ := attackApplies(e.wire, a); na != "" && a.Drawn && a.Change == scenarios.ChangeSpacing {
			a.Change = scenarios.ChangeValue // a drawn change that means nothing here
		}
		if na, _ := attackApplies(e.wire, a); na != "" {
			continue // announced at the start of the run
		}
		r := policies.Key(e.cfg.Seed, uint64(d.event())<<20|uint64(d.n()), 0xa7ac0000+uint64(i))
		out = append(out, e.sendAttack(ctx, a, e.ownEvent(st.req().ev, r.Uint64()), e.virtual(d.at)))
	}
	return out
}

// ownEvent is an event of the attack's own, like ev but with a fresh dedup
// id, so that any side effect on it is known to be the attack's; like the
// events' ids, it carries the run id.
func (e *engine) ownEvent(ev policies.Event, seed uint64) policies.Event {
	own := policies.Event{Seq: ev.Seq, Seed: seed ^ e.work.ids, Type: ev.Type, Created: ev.Created, Object: ev.Object, Version: ev.Version}
	e.wire.NewEvent(&own)
	return own
}

// wrongSecret is a secret of the right shape that is not the run's.
func (e *engine) wrongSecret() string {
	for i := uint64(1); ; i++ {
		if s := policies.GenerateSecret(e.wire.Name(), e.cfg.Seed^0xbad5ec7e7^i); s != e.cfg.Secret {
			return s
		}
	}
}

// sendAttack builds attack a about event ev and sends it, at virtual time
// at.
func (e *engine) sendAttack(ctx context.Context, a scenarios.Attack, ev policies.Event, at time.Time) attackResult {
	res := attackResult{attack: a, id: ev.ID}
	_, res.undetectable = attackApplies(e.wire, a)
	scheme, _ := policies.SchemeOf(e.wire)
	body, ctype := e.body(ev)
	now := e.cfg.WallClock.Now()
	dl := policies.Delivery{Event: ev, N: 1, Body: body, URL: e.target, Secret: e.cfg.Secret, SignedAt: now}
	h := http.Header{}
	switch a.Type {
	case scenarios.AttackBadSignature:
		dl.Secret = e.wrongSecret()
		e.wire.Header(h, dl)
		res.detail = "signed with a secret that is not the endpoint's"
	case scenarios.AttackMissingSignature:
		e.wire.Header(h, dl)
		for _, k := range scheme.Headers {
			h.Del(k)
		}
		res.detail = "sent without " + strings.Join(scheme.Headers, " or ")
	case scenarios.AttackStaleTimestamp:
		dl.SignedAt = now.Add(-scheme.Tolerance - staleBy)
		e.wire.Header(h, dl)
		res.detail = fmt.Sprintf("a valid signature made %s ago; %s accepts %s", policies.FormatDuration(scheme.Tolerance+staleBy), e.wire.Name(), policies.FormatDuration(scheme.Tolerance))
	case scenarios.AttackTamperedBody:
		e.wire.Header(h, dl)
		keeps := func(b []byte) bool { id, err := e.wire.DedupID(h, b); return err == nil && id == ev.ID }
		changed, what, ok := tamper(body, ctype, a.Change, keeps)
		if !ok {
			res.notApplicable = "the body has no value that can be changed without changing its dedup id"
			return res
		}
		body, res.detail = changed, what
	case scenarios.AttackReplayed:
		e.wire.Header(h, dl)
		first := e.exchangeAttack(ctx, body, ctype, h, at)
		res.original = first.status
		after := max(scheme.Tolerance+staleBy, replayAfterAtLeast)
		if scheme.Tolerance > 0 {
			h = http.Header{}
			dl.SignedAt = now.Add(-scheme.Tolerance - staleBy)
			e.wire.Header(h, dl)
			res.detail = fmt.Sprintf("a valid request (answered %s) resent with its signature %s later; %s accepts %s", statusWord(first.status), policies.FormatDuration(after), e.wire.Name(), policies.FormatDuration(scheme.Tolerance))
		} else {
			res.detail = fmt.Sprintf("a valid request (answered %s) resent byte for byte %s later", statusWord(first.status), policies.FormatDuration(after))
		}
		at = at.Add(after)
	}
	res.a = e.exchangeAttack(ctx, body, ctype, h, at)
	return res
}

func statusWord(status int) string {
	if status == 0 {
		return "nothing"
	}
	return fmt.Sprint(status)
}

// exchangeAttack sends one attack request with exactly the given headers,
// within the run's rate cap like any request.
func (e *engine) exchangeAttack(ctx context.Context, body []byte, ctype string, h http.Header, virtual time.Time) answer {
	_ = e.rate.wait(context.WithoutCancel(ctx))
	req, err := http.NewRequest(http.MethodPost, e.sendURL(), bytes.NewReader(body))
	if err != nil {
		return answer{err: err}
	}
	req.Header = h.Clone()
	e.addHeaders(req.Header)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set(VirtualTimeHeader, virtual.UTC().Format(time.RFC3339Nano))
	return exchange(context.WithoutCancel(ctx), e.client, e.cfg.WallClock, req, e.cfg.Policy.FollowRedirects)
}

// probe sends the provider's own invalid-signature probe when the endpoint
// is set up, and reports whether the endpoint failed it (and is removed).
func (e *engine) probe(ctx context.Context) (bool, error) {
	rule := e.cfg.Policy.SignatureProbe
	if rule == nil || e.cfg.DryRun {
		return false, nil
	}
	r := policies.Key(e.cfg.Seed, 1<<62, 0x9e0be)
	ev := e.ownEvent(e.work.event(0), r.Uint64())
	res := e.sendAttack(ctx, scenarios.Attack{Type: scenarios.AttackBadSignature}, ev, e.cfg.Start)
	res.probe = true
	if err := e.recordAttack(nil, e.cfg.Start, &res, rule.Expect); err != nil {
		return false, err
	}
	if res.a.status == rule.Expect {
		return false, nil
	}
	e.res.DisabledAt = e.cfg.Start
	e.disabledCause = DisabledByProbe
	e.disabledBy = fmt.Sprintf("%s removed the endpoint: it answered the provider's invalid-signature probe with %s, not %d", e.cfg.Policy.Name, attackAnswerWords(res.a), rule.Expect)
	return true, nil
}

func attackAnswerWords(a answer) string {
	switch {
	case a.status != 0:
		return fmt.Sprint(a.status)
	case a.timeout:
		return "no answer in time"
	case a.err != nil:
		return "a failed connection (" + describe(a.err) + ")"
	}
	return "nothing"
}

// recordAttack emits an attack's record; d is the attempt it went beside,
// nil for the provider's probe.
func (e *engine) recordAttack(d *due, at time.Time, res *attackResult, expect int) error {
	r := e.base
	r.Kind, r.Time, r.EventID = KindAttack, at, res.id
	if d != nil {
		r.Seq, r.Attempt = d.event(), d.n()
		r.Tenant = e.tenantLabel(d.event())
	}
	r.Attack, r.AttackChange, r.AttackDetail = res.attack.Type, res.attack.Change, res.detail
	r.Probe, r.ProbeExpect = res.probe, expect
	r.NotApplicable, r.Undetectable, r.OriginalStatus = res.notApplicable, res.undetectable, res.original
	r.Status, r.HandlerStatus, r.Reached = res.a.status, res.a.status, res.a.reached
	r.Latency = res.a.latency.Truncate(time.Microsecond)
	r.Error = describe(res.a.err)
	if res.a.reached && res.a.status == 0 {
		e.noteCutOff()
	}
	if res.notApplicable == "" {
		e.res.Attacks++
	}
	return e.emit(r)
}
