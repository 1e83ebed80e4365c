// Package report turns a stream of simulator records into what people read:
// summaries, verdicts, the dedup-TTL analysis, and the writers for every
// format. It only consumes records; it never runs the engine, so a saved
// results stream renders exactly as the run that made it.
package report

import (
	"slices"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Verdict is an idempotency verdict: a run's and a replay's are one type.
type Verdict = simulator.Verdict

// Verdicts on idempotency. NoVerdict is the run showing neither: no oracle,
// one that cannot vouch for the events, or nothing tested (see Judge); its
// value stays "unknown", as in the JSON reports.
const (
	Idempotent    = simulator.VerdictIdempotent
	NotIdempotent = simulator.VerdictNotIdempotent
	NoVerdict     = simulator.VerdictNone
)

// Summary is everything a report says about one run (one policy against one
// target): the facts its records establish, grouped by what they are about.
// It is a value the Aggregator concludes (Runs, Summarize) and never
// changes afterwards; every writer, chart and gate reads it, and none of
// them can reach the aggregation that made it.
type Summary struct {
	RunFacts
	FateFacts
	ArrivalFacts
	EffectsFacts
	EndpointFacts
	// The run's tenants (tenants.go).
	tenantFacts

	// What the aggregation concluded that the facts' methods read, frozen
	// with the rest: the handler's response times (Percentile), every
	// arrival after its event's key as offset from the key and, per event,
	// the latest of them (openNeed: of the events in flight at the end),
	// the kept timelines (Timelines), the events by kind of fate (Sample),
	// the signature attacks, and the events processed before the run.
	latencies, afterKey, eventNeed sample
	openNeed                       []time.Duration
	stored                         timelineView
	tally                          fateTally
	attacks                        attackLog
	effectsBefore                  map[string]int
	sampleDelivered                string // the first event the handler answered 2xx, as an example

	// RestartFailed is the restart that failed and stopped the run (the
	// run is Interrupted); nil when none did.
	RestartFailed *FailedRestart
}

// RunFacts are what the run record says: which run it is, and the
// policy's figures.
type RunFacts struct {
	Provider, Policy, Scenario string
	Seed                       uint64
	// RunID is the run id mixed into the run's dedup ids ("" in streams
	// written before runs had one).
	RunID            string
	Target           string
	PolicySummary    string
	DedupField       string
	MaxAttempts      int
	Window, Timeout  time.Duration
	ManualRedelivery time.Duration
	DisableAfter     int
	DisableWithin    time.Duration
	// DisableRule is the policy's endpoint-disable rule, from its figures
	// in the run record (DisableAfter and DisableWithin are its
	// consecutive-failures form).
	DisableRule policies.DisableRule
	// EventType is the type of the events the run delivered ("" in
	// streams that do not say): for a run of real deliveries, the types
	// that came (EventTypes), comma separated, the most first.
	EventType string
	// EventTypes counts a run of real deliveries' events by the type each
	// delivery gave, the most first; nil for a run of generated events
	// (EventType names their type), and for a stream written before event
	// records gave a delivery's type.
	EventTypes []TypeCount
	// Schedule is when each attempt happens, from the first, when every
	// earlier one failed (empty for streams that do not carry it).
	Schedule []time.Duration
	// Start is the virtual time the run started at.
	Start time.Time
	// WallStart is the real time the run started at; zero for streams
	// that do not carry it.
	WallStart time.Time
	// End is the virtual time of the run's last record.
	End time.Time
	// Planned is the number of events the run was to deliver; 0 for a
	// run of real deliveries taken as they came (retrysim proxy).
	Planned int
	// DedupDeliveryField names the id each subscription's delivery has of
	// its own, where the provider gives one: the key that lets fan-out
	// through ("" in streams that do not say).
	DedupDeliveryField string
	// AdvisedTolerance is the bound on a signed timestamp's age that is
	// good practice where the provider documents none (0 elsewhere).
	AdvisedTolerance time.Duration
	// DefaultScenario says nobody chose Scenario: it was the command's
	// default.
	DefaultScenario bool
	// DryRun says the run only modelled the handler (see Modelled).
	DryRun      bool
	Interrupted bool
	// Incomplete says the records stop before the run's end record: a
	// results stream cut off (head, a full disk, a crash). What the
	// report shows covers only the records there were.
	Incomplete bool
}

// FateFacts are what became of the run's events.
type FateFacts struct {
	Events    int // events whose fate is known
	Delivered int // events delivered
	Lost      int // events never delivered (exhausted, disabled, stopped, dropped)
	// LostToDisable counts the events lost because the endpoint was
	// disabled; LostToDisableIDs lists the first MaxListedEvents of them,
	// by sequence.
	LostToDisable    int
	LostToDisableIDs []string
	// LostToProvider counts the events the provider never sent, in its own
	// outage, and did not replay (simulator.FateDropped).
	LostToProvider    int
	InterruptedEvents int
	// LostNotRetried counts lost events the provider gave up on before the
	// end of its schedule, because its rules do not retry that failure
	// (Twilio's rp, a stop signal).
	LostNotRetried int
	// LostToPause counts the events due while the provider had paused
	// the endpoint (EndpointFacts.Pauses), never sent.
	LostToPause int
	// ReorderedPairs counts pairs of events about the same object whose
	// first arrivals at the handler came in the opposite order to the one
	// the events were created in; ReorderedUncounted when they could not
	// be counted (the temporary file they were spooled to could not be
	// read back).
	ReorderedPairs int
}

// ReorderedUncounted is ReorderedPairs when the pairs could not be
// counted.
const ReorderedUncounted = -1

// ArrivalFacts are the run's attempts and what reached the handler.
type ArrivalFacts struct {
	Attempts        int
	HandlerArrivals int
	// DuplicateArrivals counts the arrivals of an event at the handler
	// after one it did not turn away: one it answered 2xx, or one that may
	// have done the work before failing (5xx, no answer in time, the answer
	// lost). An arrival answered 4xx before any such one is refused, not a
	// duplicate: the handler did not take the event in (see Arrival).
	DuplicateArrivals int
	DuplicateEvents   int // events with a duplicate arrival
	// RefusedArrivals counts the arrivals the handler answered 4xx before
	// it had taken their event in (a wrong secret, a wrong path): they
	// delivered nothing, so they are not duplicates.
	RefusedArrivals int
	// HandlerStatuses counts the handler's answers to the deliveries by
	// status (attacks and the provider's probe aside).
	HandlerStatuses map[int]int
	Outcomes        map[simulator.Outcome]int
	// Causes counts duplicate arrivals by the outcome of the attempt before
	// them that had reached the handler: why the provider sent again.
	Causes map[simulator.Outcome]int
	// InjectedCauses counts the duplicate arrivals of Causes that came
	// after an attempt the scenario made fail (see injectedFailure), by
	// the same outcome: a subset of Causes.
	InjectedCauses map[simulator.Outcome]int
	// InjectedLateArrivals counts duplicate arrivals after an answer that
	// timed out only because the scenario added latency to it: not the
	// handler's doing, so not among Causes.
	InjectedLateArrivals int
	// HandlerRedirects counts the attempts that failed on a 3xx the
	// provider got and did not follow (none at all, or one too many), from
	// the handler or the endpoint's old address: what the redirects gate
	// and the advice count.
	HandlerRedirects int
	// RedirectsRefused counts the attempts the handler answered with a
	// redirect the provider follows, to where retrysim refused to connect
	// (not this machine, remote targets not allowed): they are not among
	// HandlerRedirects. RedirectRefusedTo is where the first led.
	RedirectsRefused  int
	RedirectRefusedTo string
	// RefusedRedirectArrivals counts duplicate arrivals after an attempt
	// whose redirect retrysim refused to follow: not among Causes.
	RefusedRedirectArrivals int
	// RedirectsUnreached counts the attempts the handler answered with a
	// redirect the provider followed to where no connection could be made
	// (connection_failed, the request never sent there);
	// UnreachedRedirectArrivals counts the duplicate arrivals after one:
	// not among Causes. RedirectUnreachedTo is where the first such
	// redirect led.
	RedirectsUnreached        int
	UnreachedRedirectArrivals int
	RedirectUnreachedTo       string
	// InvalidAnswer is what was wrong with the first answer that was not
	// valid HTTP (an invalid_response attempt), in the transport's words.
	InvalidAnswer string
	// Unreachable counts attempts whose connection failed before the request
	// was sent with no fault injected: nothing answered at the target.
	Unreachable int
	// TLSFailures counts attempts whose TLS handshake failed; TLSProblem
	// is what failed in the first.
	TLSFailures int
	TLSProblem  simulator.TLSProblem
	// CopyArrivals counts duplicate arrivals that were the second of two
	// identical requests sent at once; ManualArrivals those that were a
	// resend by hand. Neither is in Causes.
	CopyArrivals, ManualArrivals int
	// FanOutArrivals counts duplicate arrivals that were another
	// subscription's delivery of an event (the fan-out fault), not a
	// retry; Subscriptions is the most subscriptions one attempt went
	// through. Neither is in Causes.
	FanOutArrivals, Subscriptions int
	// HandlerTime is the real time the handler took to answer, summed over
	// its answers: what the run spent waiting on it.
	HandlerTime time.Duration
	// ResentUnreached counts the retries sent after an attempt that never
	// reached the handler (a connection that failed, an injected error):
	// the provider sent again, though nothing arrived twice.
	ResentUnreached int
	// Unreached counts the attempts that never reached the handler, by
	// outcome (a subset of Outcomes): what ResentUnreached retried, its
	// remainder never retried (an event's last attempt, a disable).
	Unreached map[simulator.Outcome]int
	// InjectedUnreached counts the attempts of Unreached that a fault kept
	// from the handler (dropped, refused, an outage, an edge's answer),
	// by outcome: a subset of Unreached. The others met a real failure.
	InjectedUnreached map[simulator.Outcome]int
	// ReplayArrivals counts duplicate arrivals that were replays no
	// signature can tell from a retry (the scheme signs no timestamp a
	// handler can bound), of a request the handler had accepted: a test of
	// its dedup like any retry.
	ReplayArrivals int
	// MaxArrivalSpan is the longest time between an event's first and last
	// arrival at the handler.
	MaxArrivalSpan time.Duration
	// ObservedNeed is the longest time from an event's dedup key being
	// stored (its first arrival the handler answered 2xx) to a later arrival.
	ObservedNeed time.Duration
	// HandlerTimeouts counts attempts that reached the handler and got no
	// answer within the provider's timeout: the handler itself was too slow
	// (injected latency aside: that answer did come).
	HandlerTimeouts int
}

// EffectsFacts are what the effects oracle said.
type EffectsFacts struct {
	EffectsKnown bool
	// EffectsProblem is what was wrong with the effects oracle's answer
	// when it did not answer as expected ("" when it did, or there was
	// none).
	EffectsProblem string
	// HandlersRunning counts the handler calls still running when the
	// effects were read (in-process targets); EffectsUnsettled says the
	// oracle was still changing when retrysim stopped reading it (URL
	// targets). Either way the effects may miss late work.
	HandlersRunning  int
	EffectsUnsettled bool
	// EffectsPending is the work the oracle still reported queued when
	// retrysim stopped reading it, unsettled; SettledOnQuiet the quiet
	// window the effects settled on when the oracle reports no pending
	// work and the handler was seen working after it answered.
	EffectsPending int
	SettledOnQuiet time.Duration
	// SettleWait is how long the oracle of a handler behind a URL was read
	// after the last attempt until it settled, SettleLimit the longest it
	// could have been; both 0 when it was read once, its work known done.
	SettleWait, SettleLimit time.Duration
	// HandlerDelivered counts the events the handler answered 2xx at
	// least once; EffectsMatched those of them the effects oracle reports
	// processed at least once (see OracleBlind).
	HandlerDelivered, EffectsMatched int
	// Effects is how often the handler processed each event during the
	// run (oracle); see Times for before it too.
	Effects map[string]int
}

// EndpointFacts are what happened to the endpoint and around it: the
// disable, the provider's pauses, the outages, the handler's restarts, and
// the provider's own probe and handshake.
type EndpointFacts struct {
	DisabledAt time.Time
	// DisabledBy says what disabled the endpoint, in the engine's words
	// ("" in streams that do not say); DisabledCause which kind of thing
	// it was.
	DisabledBy    string
	DisabledCause simulator.DisableCause
	// Probe is the provider's own invalid-signature probe, when it sent one.
	Probe *simulator.Record
	// Handshake is the provider's handshake when the endpoint was set up,
	// when it sent one.
	Handshake *simulator.Record
	// Outages are the spans of virtual time in which attempts met an
	// injected outage, inferred from the attempts' faults: from the first
	// such attempt to the last one before an attempt got through.
	Outages []Span
	// OutageWindows are the scenario's outage windows, whole, as the run
	// record states them (none in streams that do not).
	OutageWindows []Span
	// Pauses are the spans in which the provider had disabled the
	// endpoint for a while (a disable rule's backoff: GitLab), from the
	// end record (FateFacts.LostToPause counts the events due in them).
	Pauses []Span
	// Restarts are the moments the handler was restarted, since the start.
	Restarts []time.Duration
}

// FailedRestart is a restart of the handler that failed: the handler was
// killed and could not be started again, so the run stopped there.
type FailedRestart struct {
	// At is the restart's moment, since the start of the run.
	At time.Duration
	// Error says why it failed.
	Error string
}

// Span is a stretch of virtual time.
type Span struct{ From, To time.Time }

// EventTimeline is one event's attempts, for the per-event timeline.
type EventTimeline struct {
	ID       string
	Seq      int
	Attempts []simulator.Record
	Fate     string
	// Due is, for an event never attempted, when it was due: the time its
	// fate was decided (dropped in the provider's outage, paused, or lost
	// to a disable); zero for an event attempted.
	Due time.Time
	// Attacks are the attack requests sent beside the event's attempts.
	Attacks []simulator.Record
	// dropped marks a timeline held in case it was needed, and not kept.
	dropped bool
}

// MaxListedEvents is how many event ids a report lists for one finding.
const MaxListedEvents = 100

// Verdict is the idempotency verdict: Idempotent, NotIdempotent or NoVerdict
// (see Judge, which decides it and says why).
func (r *Summary) Verdict() Verdict { return r.Judge().Verdict }

// Offenders lists the events the handler processed more than once, by id
// (see ProcessedMoreThanOnce).
func (r *Summary) Offenders() []string {
	var out []string
	for id := range r.Effects {
		if r.ProcessedMoreThanOnce(id) > 0 {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// ProcessedMoreThanOnce is how many times in all the handler processed
// event id, by the oracle, when that was more than once and at least once
// during the run (an event processed once before the run and once during
// it counts); 0 otherwise, and when the effects are not known. A request
// of an attack counts only when it was a replay no signature can tell
// from a retry. Every writer that marks an event as processed again asks
// this.
func (r *Summary) ProcessedMoreThanOnce(id string) int {
	if !r.EffectsKnown || r.Effects[id] == 0 || (r.attacks.ids[id] && !r.attacks.retryLike[id]) {
		return 0
	}
	if n := r.Times(id); n > 1 {
		return n
	}
	return 0
}

// Times is how often the handler processed event id in all, by the
// oracle: during the run and before it.
func (r *Summary) Times(id string) int { return r.Effects[id] + r.effectsBefore[id] }

// extraEffects is how many of event id's side effects during the run were
// one too many: all of them when it had been processed before.
func (r *Summary) extraEffects(id string) int {
	if r.effectsBefore[id] > 0 {
		return r.Effects[id]
	}
	return max(r.Effects[id]-1, 0)
}

// DuplicateEffects is the number of events processed more than once, or -1
// when unknown.
func (r *Summary) DuplicateEffects() int {
	if r.Verdict() == NoVerdict {
		return -1
	}
	return len(r.Offenders())
}

// Percentile returns the p-th percentile (0..100) of the handler's response
// times, nearest rank; 0 when there are none.
func (r *Summary) Percentile(p float64) time.Duration { return r.latencies.percentile(p) }
