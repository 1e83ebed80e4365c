package report

import (
	"fmt"
	"slices"
	"sort"
	"strings"

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

// addAttack folds an attack record into the run.
func (r *Run) addAttack(rec *simulator.Record, keep int) error {
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
	r.attacksSent = append(r.attacksSent, attackSent{name: name, id: rec.Event, status: rec.HandlerStatus, reached: rec.Reached, original: rec.OriginalStatus})
	if r.attackIDs == nil {
		r.attackIDs = map[string]bool{}
	}
	r.attackIDs[rec.Event] = true
	if rec.Undetectable != "" {
		if r.retryLike == nil {
			r.retryLike = map[string]bool{}
		}
		r.retryLike[rec.Event] = true
		if rec.Reached && rec.OriginalStatus >= 200 && rec.OriginalStatus < 300 {
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
	if ev := r.live[rec.Seq]; ev != nil && (keep < 0 || rec.Seq < keep) {
		return r.keepRecord(ev, rec, chunkAttack)
	}
	return nil
}

func (r *Run) attackKind(name string) *attackKind {
	for _, k := range r.attackKinds {
		if k.name == name {
			return k
		}
	}
	k := &attackKind{name: name}
	r.attackKinds = append(r.attackKinds, k)
	return k
}

// IsAttackID reports whether id is the dedup id of an attack request (so
// its side effects are the attack's, not a duplicate's).
func (r *Run) IsAttackID(id string) bool { return r.attackIDs[id] }

// Attacks sums up the run's attacks by kind: the provider's probe first,
// then in the order the run first met them.
func (r *Run) Attacks() []AttackSummary {
	out := make([]AttackSummary, 0, len(r.attackKinds))
	index := map[string]int{}
	for _, k := range r.attackKinds {
		index[k.name] = len(out)
		s := AttackSummary{Attack: k.name, NotApplicable: k.notApplicable, Undetectable: k.undetectable, Detail: k.detail,
			Statuses: map[int]int{}, Probe: k.probe, ProbeExpect: k.expect, Effects: -1}
		if r.EffectsKnown {
			s.Effects = 0
		}
		out = append(out, s)
	}
	for _, a := range r.attacksSent {
		s := &out[index[a.name]]
		s.NotApplicable = ""
		s.Sent++
		if a.status != 0 {
			s.Answered++
			s.Statuses[a.status]++
		}
		switch {
		case a.status >= 200 && a.status < 300:
			s.Accepted++
		case a.status >= 400 && a.status < 500:
			s.Rejected++
		case a.status != 0:
			s.Errored++
		}
		if r.EffectsKnown {
			n := r.Effects[a.id]
			if a.original >= 200 && a.original < 300 {
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
func (r *Run) SignatureCheck() string {
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
	SigTested        SigReasonCode = "tested"
	SigNoAttack      SigReasonCode = "no_attack"
	SigNotApplicable SigReasonCode = "not_applicable"
	SigNoneAnswered  SigReasonCode = "none_answered"
	SigNoneAccepted  SigReasonCode = "no_genuine_accepted"
	SigErrored       SigReasonCode = "errored"
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
func (r *Run) sigReason() SigReason {
	attacks := r.Attacks()
	answered, errored, na := 0, 0, 0
	statuses, errStatuses := map[int]int{}, map[int]int{}
	var names []string
	for _, a := range attacks {
		answered += a.Answered
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

func (r *Run) sigFailed() bool {
	for _, a := range r.Attacks() {
		if a.Failed() {
			return true
		}
	}
	return false
}

// sigUntested says why the attacks' answers prove nothing, in words; ""
// when they do.
func (r *Run) sigUntested() string {
	why := r.sigReason()
	switch why.Code {
	case SigNoAttack:
		return "no request your handler must reject was sent (--scenario forged sends forged, tampered, unsigned, stale and replayed ones)"
	case SigNotApplicable:
		return "none of the scenario's attacks applies to " + r.Provider + " (" + strings.Join(why.Names, ", ") + ")"
	case SigNoneAnswered:
		return "no attack request reached your handler"
	case SigNoneAccepted:
		genuine := "no genuine delivery reached your handler"
		if r.HandlerArrivals > 0 {
			genuine = fmt.Sprintf("your handler accepted none of the %d genuine %s either (%s)", r.HandlerArrivals, plural(r.HandlerArrivals, "delivery", "deliveries"), r.answerList())
		}
		return fmt.Sprintf("%s, so its answers to the requests it must not trust (%s) cannot tell signature verification from a handler that turns everything away or is broken", genuine, statusList(why.Statuses))
	case SigErrored:
		them := plural(why.Errored, "it", "them")
		return fmt.Sprintf("your handler failed on %s it must not trust (%s) instead of rejecting %s with a 4xx: an error is not a rejection, so whether it verified %s is unknown",
			counted(why.Errored, "request", "requests"), statusList(why.Statuses), them, them)
	}
	return ""
}

// ForgedAccepted names the attacks the handler let through.
func (r *Run) ForgedAccepted() []string {
	var out []string
	for _, a := range r.Attacks() {
		if a.Failed() {
			out = append(out, a.Attack)
		}
	}
	return out
}

// SignatureWords is how the reports spell a signature check verdict.
func SignatureWords(v string) string {
	switch v {
	case SignatureEnforced:
		return "ENFORCED"
	case SignatureNotEnforced:
		return "NOT ENFORCED"
	}
	return "not tested"
}

// SignatureLine says the signature check in one line, as every report
// format shows it.
func (r *Run) SignatureLine() string {
	attacks := r.Attacks()
	switch r.SignatureCheck() {
	case SignatureEnforced:
		sent, absorbed, again, statuses := 0, 0, 0, map[int]int{}
		for _, a := range attacks {
			if a.Undetectable != "" {
				if a.Effects > 0 {
					again += a.Sent
				} else {
					absorbed += a.Sent
				}
				continue
			}
			sent += a.Sent
			for s, n := range a.Statuses {
				statuses[s] += n
			}
		}
		line := fmt.Sprintf("✓ ENFORCED: your handler turned away %s it must not trust (%s)", allOf(sent, "request", "requests"), statusList(statuses))
		switch {
		case absorbed > 0 && sent == 0:
			line = fmt.Sprintf("✓ ENFORCED: your handler's dedup absorbed %s its signature cannot tell from retries", counted(absorbed, "replay", "replays"))
		case absorbed > 0:
			line = fmt.Sprintf("✓ ENFORCED: your handler turned away all %s its signature check can catch (%s), and its dedup absorbed %s it cannot tell from retries",
				counted(sent, "request", "requests"), statusList(statuses), counted(absorbed, "replay", "replays"))
		}
		switch {
		case again > 0 && sent == 0 && absorbed == 0:
			line = fmt.Sprintf("✓ ENFORCED as far as a signature can: %s it cannot tell from retries %s processed again, a duplicate effect (see idempotency)", counted(again, "replay", "replays"), plural(again, "was", "were"))
		case again > 0:
			line += fmt.Sprintf("; %s it cannot tell from retries %s processed again, a duplicate effect (see idempotency)", counted(again, "replay", "replays"), plural(again, "was", "were"))
		case !r.EffectsKnown:
			line += "; side effects unknown (no effects oracle), judged on the answers alone"
		default:
			line += "; none had a side effect"
		}
		return line
	case SignatureNotEnforced:
		var names []string
		kinds, accepted, effects := 0, 0, 0
		for _, a := range attacks {
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
		line := fmt.Sprintf("✗ NOT ENFORCED: your handler let %d of %s of attack through (%s)", len(names), counted(kinds, "kind", "kinds"), strings.Join(names, ", "))
		var what []string
		if accepted > 0 {
			what = append(what, counted(accepted, "request answered 2xx", "requests answered 2xx"))
		}
		if effects > 0 {
			what = append(what, counted(effects, "side effect", "side effects"))
		}
		return line + ": " + strings.Join(what, ", ")
	}
	return "not tested: " + r.sigUntested()
}

// attackLine says what one kind of attack came to, for the per-attack
// lines under the signature check.
func attackLine(a *AttackSummary) (mark, text string) {
	if a.NotApplicable != "" {
		return "–", "does not apply: " + a.NotApplicable
	}
	text = fmt.Sprintf("%d sent", a.Sent)
	if a.Answered > 0 {
		text += ", answered " + statusList(a.Statuses)
	}
	if a.Answered < a.Sent {
		text += fmt.Sprintf(", %d not answered", a.Sent-a.Answered)
	}
	switch {
	case a.Effects > 0:
		text += ", " + counted(a.Effects, "side effect", "side effects")
	case a.Effects == 0 && a.Sent > 0:
		text += ", no side effect"
	}
	if a.Detail != "" {
		text += " — " + a.Detail
	}
	if a.Undetectable != "" {
		text += " (" + a.Undetectable
		if a.Effects == 0 {
			text += "; it held"
		}
		text += ")"
	}
	if a.Errored > 0 {
		text += fmt.Sprintf(" (%d answered with an error, not a rejection: your handler failed on %s)", a.Errored, plural(a.Errored, "it", "them"))
	}
	switch {
	case a.Failed():
		mark = "✗"
	case a.Answered == 0 || a.Errored > 0:
		mark = "?"
	default:
		mark = "✓"
	}
	return mark, text
}

// probeLine says how the endpoint answered the provider's own probe; "" when
// there was none.
func (r *Run) probeLine() string {
	if r.Probe == nil {
		return ""
	}
	got := "nothing"
	if r.Probe.HandlerStatus != 0 {
		got = fmt.Sprint(r.Probe.HandlerStatus)
	}
	if r.Probe.HandlerStatus == r.Probe.ProbeExpect {
		return fmt.Sprintf("%s probed the endpoint with an invalid signature when it was set up: answered %s ✓", r.Policy, got)
	}
	return fmt.Sprintf("%s probed the endpoint with an invalid signature when it was set up: answered %s, not %d ✗ — %s removes such an endpoint", r.Policy, got, r.Probe.ProbeExpect, r.Provider)
}

// signatureAdvice says what to change when attacks got through.
func (r *Run) signatureAdvice() []string {
	var out []string
	forged, stale, replayEffects := false, false, false
	for _, a := range r.Attacks() {
		if a.Errored > 0 && !a.Probe && r.HandlerDelivered > 0 {
			forged = true // it failed on the attack instead of rejecting it
		}
		if !a.Failed() {
			continue
		}
		switch strings.Fields(a.Attack)[0] {
		case "stale-timestamp":
			stale = true
		case "replayed":
			stale = stale || a.Accepted > 0 && a.Undetectable == ""
			replayEffects = replayEffects || a.Effects > 0
		default:
			forged = true
		}
	}
	if r.Probe != nil && r.Probe.HandlerStatus != r.Probe.ProbeExpect {
		out = append(out, fmt.Sprintf("answer a request whose signature fails with %d: %s sends one when the endpoint is set up and removes an endpoint that answers anything else", r.Probe.ProbeExpect, r.Provider))
	}
	if forged {
		out = append(out, "verify the signature with your secret over the raw body bytes before anything else, and answer 401 without acting when it fails or is missing")
	}
	if stale {
		out = append(out, "reject a signature whose timestamp is older than the provider's tolerance (5 minutes for most): a valid but old signature is a captured request")
	}
	if replayEffects {
		out = append(out, fmt.Sprintf("a replayed request was acted on again: store the dedup id (%s) under a unique constraint, for as long as the TTL analysis says", r.DedupField))
	}
	return out
}

// statusList shows answers by status: "401 ×5, 200 ×1".
func statusList(m map[int]int) string {
	codes := make([]int, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	slices.SortFunc(codes, func(a, b int) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return a - b
	})
	parts := make([]string, len(codes))
	for i, c := range codes {
		parts[i] = fmt.Sprintf("%d ×%d", c, m[c])
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ", ")
}

// allOf says all n of a thing: "the one request", "all 3 requests".
func allOf(n int, one, many string) string {
	if n == 1 {
		return "the one " + one
	}
	return "all " + counted(n, one, many)
}
