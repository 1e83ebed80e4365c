package report

import (
	"maps"
	"slices"
	"sort"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Signature check verdicts: the second verdict of a run, on whether the
// handler rejects the requests it must not trust.
const (
	// SignatureEnforced: every attack the handler answered got a non-2xx
	// (a 2xx only where no signature can catch it) and caused no effect.
	SignatureEnforced = "enforced"
	// SignatureNotEnforced: an attack got a 2xx its signature should have
	// prevented, or caused a side effect.
	SignatureNotEnforced = "not_enforced"
	// SignatureNotTested: the run cannot tell whether the handler verifies:
	// no attack was answered (none was sent, or none reached the handler),
	// the handler failed on an attack (an error is not a rejection), or it
	// accepted none of the genuine deliveries either (a handler that turns
	// everything away, or is broken, rejects forgeries too).
	SignatureNotTested = "not_tested"
)

// ProbeName is the name reports give the provider's own
// invalid-signature probe.
const ProbeName = "invalid-signature probe"

// AttackSummary is what one kind of attack came to in a run.
type AttackSummary struct {
	// Attack names it: the type, and how a tampered body was changed
	// ("tampered-body (spacing)"), or ProbeName for the provider's probe.
	Attack string
	// NotApplicable says why it was not sent.
	NotApplicable string
	// Undetectable says why only dedup can stop it: a 2xx is then allowed.
	Undetectable string
	// Detail says what the first request of the kind did, in words.
	Detail string
	// Sent counts the requests; Answered those the handler answered;
	// Rejected those answered 4xx; Accepted those answered 2xx; Errored
	// those answered with anything else (a 5xx: the handler failed, it did
	// not turn the request away).
	Sent, Answered, Rejected, Accepted, Errored int
	// Statuses counts the handler's answers by status.
	Statuses map[int]int
	// Effects counts the side effects the requests caused; -1 when the
	// run had no effects oracle.
	Effects int
	// Probe says these were the provider's own probes, which must be
	// answered with ProbeExpect or the endpoint is removed.
	Probe       bool
	ProbeExpect int
}

// Failed reports whether the handler let the attack through: a 2xx to a
// request its signature check can catch, or a side effect of one. An
// attack no signature can catch (a replay where nothing signed is
// time-bound) is a retry: a second side effect of it is a duplicate
// effect, judged by the idempotency verdict, not the signature check.
func (a *AttackSummary) Failed() bool {
	return a.Undetectable == "" && (a.Effects > 0 || a.Accepted > 0)
}

// attackSent is one attack request of a run, as its record said.
type attackSent struct {
	name     string
	id       string // the attack's own dedup id
	status   int
	reached  bool
	original int // a replay's original: the handler's answer
}

// attackKind is what a run keeps of one kind of attack before the effects
// are known.
type attackKind struct {
	name, notApplicable, undetectable, detail string
	probe                                     bool
	expect                                    int
}

// attackLog is a run's signature attacks: each kind met, each request
// sent, and the requests' own dedup ids; retryLike marks those of replays
// no signature can tell from a retry: their second side effect is a
// duplicate effect.
type attackLog struct {
	kinds     []*attackKind
	sent      []attackSent
	ids       map[string]bool
	retryLike map[string]bool
}

// clone returns a copy of l that later attacks do not change.
func (l attackLog) clone() attackLog {
	c := attackLog{sent: slices.Clone(l.sent), ids: maps.Clone(l.ids), retryLike: maps.Clone(l.retryLike)}
	for _, k := range l.kinds {
		k := *k
		c.kinds = append(c.kinds, &k)
	}
	return c
}

// addAttack folds an attack record into the run.
func (r *runAgg) addAttack(rec *simulator.Record) error {
	name := rec.Attack
	if rec.AttackChange != "" {
		name += " (" + rec.AttackChange + ")"
	}
	if rec.Probe {
		name = ProbeName
	}
	k := r.attackKind(name)
	if rec.NotApplicable != "" {
		k.notApplicable = rec.NotApplicable
		return nil
	}
	if k.detail == "" {
		k.detail = rec.AttackDetail
	}
	k.undetectable = rec.Undetectable
	k.probe, k.expect = rec.Probe, rec.ProbeExpect
	r.attacks.sent = append(r.attacks.sent, attackSent{name: name, id: rec.EventID, status: rec.HandlerStatus, reached: rec.Reached, original: rec.OriginalStatus})
	if r.attacks.ids == nil {
		r.attacks.ids = map[string]bool{}
	}
	r.attacks.ids[rec.EventID] = true
	if rec.Undetectable != "" {
		if r.attacks.retryLike == nil {
			r.attacks.retryLike = map[string]bool{}
		}
		r.attacks.retryLike[rec.EventID] = true
		if rec.Reached && policies.Is2xx(rec.OriginalStatus) {
			// A retry of a request the handler accepted: it tests dedup.
			r.DuplicateArrivals++
			r.DuplicateEvents++
			r.ReplayArrivals++
		}
	}
	if rec.Probe {
		p := *rec
		r.Probe = &p
		return nil
	}
	if ev := r.live.get(rec.Attempt, rec.Seq); ev != nil {
		return r.keepRecord(ev, rec, chunkAttack)
	}
	return nil
}

func (r *runAgg) attackKind(name string) *attackKind {
	for _, k := range r.attacks.kinds {
		if k.name == name {
			return k
		}
	}
	k := &attackKind{name: name}
	r.attacks.kinds = append(r.attacks.kinds, k)
	return k
}

// IsAttackID reports whether id is the dedup id of an attack request (so
// its side effects are the attack's, not a duplicate's).
func (r *Summary) IsAttackID(id string) bool { return r.attacks.ids[id] }

// Attacks sums up the run's attacks by kind: the provider's probe first,
// then in the order the run first met them.
func (r *Summary) Attacks() []AttackSummary {
	out := make([]AttackSummary, 0, len(r.attacks.kinds))
	index := map[string]int{}
	for _, k := range r.attacks.kinds {
		index[k.name] = len(out)
		s := AttackSummary{Attack: k.name, NotApplicable: k.notApplicable, Undetectable: k.undetectable, Detail: k.detail,
			Statuses: map[int]int{}, Probe: k.probe, ProbeExpect: k.expect, Effects: -1}
		if r.EffectsKnown {
			s.Effects = 0
		}
		out = append(out, s)
	}
	for _, a := range r.attacks.sent {
		s := &out[index[a.name]]
		s.NotApplicable = ""
		s.Sent++
		if a.status != 0 {
			s.Answered++
			s.Statuses[a.status]++
		}
		switch {
		case policies.Is2xx(a.status):
			s.Accepted++
		case a.status >= 400 && a.status < 500:
			s.Rejected++
		case a.status != 0:
			s.Errored++
		}
		if r.EffectsKnown {
			n := r.Effects[a.id]
			if policies.Is2xx(a.original) {
				n-- // the original of a replay was a valid request
			}
			s.Effects += max(n, 0)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Probe && !out[j].Probe })
	return out
}

// SignatureCheck is the run's second verdict: SignatureEnforced,
// SignatureNotEnforced or SignatureNotTested.
//
// Only a 4xx is a rejection: a handler that fails on an attack (5xx) did
// not verify it, and one that accepted none of the genuine deliveries
// either (a wrong secret, a broken handler) rejects forgeries for no
// reason of theirs. Neither proves the check, so both are not tested.
func (r *Summary) SignatureCheck() string {
	if r.sigFailed() {
		return SignatureNotEnforced
	}
	if r.sigReason().Code != SigTested {
		return SignatureNotTested
	}
	return SignatureEnforced
}

// SigReasonCode says whether the attacks' answers prove the signature
// check, and why not.
type SigReasonCode string

// The reasons the attacks prove the check or do not.
const (
	SigTested   SigReasonCode = "tested"
	SigNoAttack SigReasonCode = "no_attack"
	// SigHandshakeFailed: the endpoint failed the provider's handshake, so
	// the provider never enabled it and sent nothing, attacks included.
	SigHandshakeFailed SigReasonCode = "handshake_failed"
	SigNotApplicable   SigReasonCode = "not_applicable"
	SigNoneAnswered    SigReasonCode = "none_answered"
	SigNoneAccepted    SigReasonCode = "no_genuine_accepted"
	SigErrored         SigReasonCode = "errored"
)

// SigReason is a SigReasonCode with the figures its sentence needs.
type SigReason struct {
	Code SigReasonCode
	// Errored counts the attacks answered with an error; Statuses counts
	// the answers to the attacks (all of them, or the errors for
	// SigErrored) by status.
	Errored  int
	Statuses map[int]int
	// Names are the attacks that do not apply, for SigNotApplicable.
	Names []string
}

// sigReason decides whether the attacks' answers prove anything.
func (r *Summary) sigReason() SigReason {
	attacks := r.Attacks()
	answered, errored, na, sent := 0, 0, 0, 0
	statuses, errStatuses := map[int]int{}, map[int]int{}
	var names []string
	for _, a := range attacks {
		answered += a.Answered
		sent += a.Sent
		errored += a.Errored
		names = append(names, a.Attack)
		if a.NotApplicable != "" {
			na++
		}
		for c, n := range a.Statuses {
			statuses[c] += n
			if c < 200 || (c >= 300 && c < 400) || c >= 500 {
				errStatuses[c] += n
			}
		}
	}
	switch {
	case sent == 0 && r.HandshakeFailed():
		return SigReason{Code: SigHandshakeFailed}
	case len(attacks) == 0:
		return SigReason{Code: SigNoAttack}
	case na == len(attacks):
		return SigReason{Code: SigNotApplicable, Names: names}
	case answered == 0:
		return SigReason{Code: SigNoneAnswered}
	case r.HandlerDelivered == 0 && !r.Modelled():
		return SigReason{Code: SigNoneAccepted, Statuses: statuses}
	case errored > 0:
		return SigReason{Code: SigErrored, Errored: errored, Statuses: errStatuses}
	}
	return SigReason{Code: SigTested, Statuses: statuses}
}

func (r *Summary) sigFailed() bool {
	for _, a := range r.Attacks() {
		if a.Failed() {
			return true
		}
	}
	return false
}

// letThrough is what the attacks the handler let through came to: their
// names, the kinds of attack sent, the requests of them its signature
// check could have caught that it answered 2xx, and their side effects.
func (r *Summary) letThrough() (names []string, kinds, accepted, effects int) {
	for _, a := range r.Attacks() {
		if a.Sent > 0 {
			kinds++
		}
		if a.Failed() {
			names = append(names, a.Attack)
			if a.Undetectable == "" {
				accepted += a.Accepted
			}
			effects += max(a.Effects, 0)
		}
	}
	return names, kinds, accepted, effects
}

// ReplaysProcessedAgain counts the offenders that are replayed requests an
// attack sent on ids of their own (see ProcessedMoreThanOnce): processed
// more than once, yet no event of the run.
func (r *Summary) ReplaysProcessedAgain() int {
	n := 0
	for _, id := range r.Offenders() {
		if r.IsAttackID(id) {
			n++
		}
	}
	return n
}

// ForgedAccepted names the attacks the handler let through.
func (r *Summary) ForgedAccepted() []string {
	var out []string
	for _, a := range r.Attacks() {
		if a.Failed() {
			out = append(out, a.Attack)
		}
	}
	return out
}
