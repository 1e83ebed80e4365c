package report

// The words of the signature check (signature_verdict.go decides it): its
// line, each attack's, the provider's probe, and the advice.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// sigUntested says why the attacks' answers prove nothing, in words; ""
// when they do.
func (w words) sigUntested(r *Summary) string {
	why := r.sigReason()
	switch why.Code {
	case SigHandshakeFailed:
		return fmt.Sprintf("the %s handshake failed, so %s never enabled the endpoint and sent it nothing, attacks included", r.Handshake.Handshake, r.Policy)
	case SigNoAttack:
		return "no request your handler must reject was sent (" + w.of(simulator.SettingForgedScenario) + " sends forged, tampered, unsigned, stale and replayed ones)"
	case SigNotApplicable:
		return "none of the scenario's attacks applies to " + r.Provider + " (" + strings.Join(why.Names, ", ") + ")"
	case SigNoneAnswered:
		return "no attack request reached your handler"
	case SigNoneAccepted:
		genuine := "no genuine delivery reached your handler"
		if r.HandlerArrivals > 0 {
			genuine = fmt.Sprintf("your handler accepted none of the %d genuine %s either (%s)", r.HandlerArrivals, plural(r.HandlerArrivals, "delivery", "deliveries"), answerList(r))
		}
		return fmt.Sprintf("%s, so its answers to the requests it must not trust (%s) cannot tell signature verification from a handler that turns everything away or is broken", genuine, statusList(why.Statuses))
	case SigErrored:
		them := plural(why.Errored, "it", "them")
		return fmt.Sprintf("your handler failed on %s it must not trust (%s) instead of rejecting %s with a 4xx: an error is not a rejection, so whether it verified %s is unknown",
			counted(why.Errored, "request", "requests"), statusList(why.Statuses), them, them)
	}
	return ""
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
// format shows it, naming settings the Go way.
func (r *Summary) SignatureLine() string { return words{}.signatureLine(r) }

// signatureLine is SignatureLine: the check's mark, then what was seen.
func (w words) signatureLine(r *Summary) string {
	switch r.SignatureCheck() {
	case SignatureEnforced:
		return "✓ " + w.signatureSeen(r)
	case SignatureNotEnforced:
		return "✗ " + w.signatureSeen(r)
	}
	return "not tested: " + w.signatureSeen(r)
}

// signatureSeen says what the signature check saw, without its mark: for
// a check that was not made, why not.
func (w words) signatureSeen(r *Summary) string {
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
		line := fmt.Sprintf("ENFORCED: your handler turned away %s it must not trust (%s)", allOf(sent, "request", "requests"), statusList(statuses))
		switch {
		case absorbed > 0 && sent == 0:
			line = fmt.Sprintf("ENFORCED: your handler's dedup absorbed %s its signature cannot tell from retries", counted(absorbed, "replay", "replays"))
		case absorbed > 0:
			line = fmt.Sprintf("ENFORCED: your handler turned away all %s its signature check can catch (%s), and its dedup absorbed %s it cannot tell from retries",
				counted(sent, "request", "requests"), statusList(statuses), counted(absorbed, "replay", "replays"))
		}
		switch {
		case again > 0 && sent == 0 && absorbed == 0:
			line = fmt.Sprintf("ENFORCED as far as a signature can: %s it cannot tell from retries %s processed again, a duplicate effect (see idempotency)", counted(again, "replay", "replays"), plural(again, "was", "were"))
		case again > 0:
			line += fmt.Sprintf("; %s it cannot tell from retries %s processed again, a duplicate effect (see idempotency)", counted(again, "replay", "replays"), plural(again, "was", "were"))
		case !r.EffectsKnown:
			line += "; side effects unknown (no effects oracle), judged on the answers alone"
		default:
			line += "; none had a side effect"
		}
		return line
	case SignatureNotEnforced:
		names, kinds, accepted, effects := r.letThrough()
		line := fmt.Sprintf("NOT ENFORCED: your handler let %d of %s of attack through (%s)", len(names), counted(kinds, "kind", "kinds"), strings.Join(names, ", "))
		return line + ": " + letThroughWords(accepted, effects, strconv.Itoa, "request answered 2xx", "requests answered 2xx")
	}
	return w.sigUntested(r)
}

// letThroughWords says what the attacks let through came to: "30 requests
// answered 2xx, 25 side effects", each number written by num, the
// requests named one and many.
func letThroughWords(accepted, effects int, num func(int) string, one, many string) string {
	var what []string
	if accepted > 0 {
		what = append(what, num(accepted)+" "+plural(accepted, one, many))
	}
	if effects > 0 {
		what = append(what, num(effects)+" "+plural(effects, "side effect", "side effects"))
	}
	return strings.Join(what, ", ")
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
func (r *Summary) probeLine() string {
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
func (r *Summary) signatureAdvice() []string {
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

// ToleranceAdvice is advice, never a failure, for a scheme that signs a
// timestamp whose provider documents no bound on its age and whose
// libraries check none (Discord, Zoom): bounding it is good practice, and
// until a handler does, only dedup stops a replay. "" for other schemes, or
// when the run sent no attack (the signature was not looked at).
func (r *Summary) ToleranceAdvice() string {
	if r.AdvisedTolerance <= 0 || len(r.Attacks()) == 0 {
		return ""
	}
	return fmt.Sprintf("advice, not a requirement: %s documents no bound on its signed timestamp's age and its libraries check none; rejecting a request signed more than %s ago is good practice, and until then only dedup on the %s stops a replay",
		r.Provider, dur(r.AdvisedTolerance), r.DedupField)
}
