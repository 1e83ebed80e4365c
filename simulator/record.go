package simulator

import "time"

// Outcome is how the provider classified one attempt.
type Outcome string

// The outcomes of an attempt, as the provider sees them.
const (
	// Delivered: the handler answered 2xx within the timeout.
	Delivered Outcome = "delivered"
	// HTTPError: the provider got a non-2xx answer (from the handler, or
	// from a proxy in front of it).
	HTTPError Outcome = "http_error"
	// Redirect: the answer was a 3xx the provider does not follow, more
	// redirects than it follows, or a redirect it would follow to where
	// retrysim refused to connect (RedirectRefused says where).
	Redirect Outcome = "redirect"
	// Timeout: no answer within the provider's timeout.
	Timeout Outcome = "timeout"
	// ConnectionFailed: the connection failed; Reached says whether the
	// request had been sent before it did (a connection closed or reset
	// before any answer came back), and RedirectUnreached where a
	// redirect the provider followed led when no connection could be made
	// there.
	ConnectionFailed Outcome = "connection_failed"
	// InvalidResponse: the request reached the handler and an answer began
	// to come back, but it was not valid HTTP (another protocol, a
	// malformed status line or header, an answer cut off in its headers,
	// headers over the provider's size limit); the provider counts it as a
	// failure. Error says what was wrong with it.
	InvalidResponse Outcome = "invalid_response"
	// LostResponse: the handler answered but the answer was lost on the way
	// back; the provider saw a timeout.
	LostResponse Outcome = "lost_response"
)

// Failed reports whether the provider counts the outcome as a failure (and so
// will retry).
func (o Outcome) Failed() bool { return o != Delivered }

// Kinds of Record.
const (
	// KindRun opens a run: the run's context and the policy's figures.
	KindRun = "run"
	// KindAttempt is one delivery attempt.
	KindAttempt = "attempt"
	// KindEvent closes an event: its fate once nothing more will be sent.
	KindEvent = "event"
	// KindEffects reports how often the handler processed an event, as the
	// effects oracle told after the run.
	KindEffects = "effects"
	// KindEnd closes a run.
	KindEnd = "end"
	// KindRestart says the handler was restarted (killed and started again)
	// at Time; N counts the restarts from 1, Error says why one failed.
	KindRestart = "restart"
	// KindAttack is a request the handler must reject, sent beside attempt
	// N of event Seq: a signature attack from the scenario, or (Probe) the
	// provider's own invalid-signature probe. EventID is the attack's own
	// dedup id, which the provider never sends, so any side effect on it is
	// the attack's. With NotApplicable set nothing was sent: the record says
	// once per run why the provider's scheme makes the attack pointless.
	KindAttack = "attack"
	// KindHandshake is the provider's handshake when the endpoint is set
	// up, before any event (Slack's url_verification, Zoom's
	// endpoint.url_validation, Discord's PING): Handshake names it,
	// HandshakeExpect says the answer the provider accepts, and
	// HandshakeProblem, when set, why the answer was not it. An endpoint
	// whose handshake failed is never enabled.
	KindHandshake = "handshake"
	// KindDisable says a tenant's subscription was disabled at Time, by
	// attempt N of event Seq (Event), in a run of several tenants:
	// DisabledBy and DisabledCause say what disabled it, Tenant whose it
	// was. (With one tenant the end record says when the endpoint was.)
	KindDisable = "disable"
)

// DisableCause is what disabled the endpoint, in end records.
type DisableCause string

// The causes of an endpoint being disabled.
const (
	// DisabledByRule: the policy's endpoint-disable rule (Record.DisableRule).
	DisabledByRule DisableCause = "rule"
	// DisabledByProbe: the handler failed the provider's invalid-signature
	// probe.
	DisabledByProbe DisableCause = "probe"
	// DisabledByHandshake: the handler failed the provider's handshake, so
	// the endpoint was never enabled.
	DisabledByHandshake DisableCause = "handshake"
	// DisabledBySignal: the handler's answer told the provider to disable
	// the endpoint.
	DisabledBySignal DisableCause = "signal"
)

// Fates of an event, in KindEvent records.
const (
	FateDelivered   = "delivered"   // an attempt was delivered
	FateExhausted   = "exhausted"   // every attempt of the schedule failed
	FateDisabled    = "disabled"    // the endpoint was disabled first
	FateStopped     = "stopped"     // the handler told the provider to stop retrying
	FateInterrupted = "interrupted" // the run was interrupted first
	FateDropped     = "dropped"     // the provider never sent it (its own outage, no replay)
	FatePaused      = "paused"      // never sent: the endpoint was disabled for a while then (backoff)
)

// Record is the one contract between the engine and everything that reports
// on a run: the engine emits records, reports only consume them, and
// `retrysim run --results` writes them as JSON Lines that `retrysim report`
// reads back (record_json.go spells them; the stream's keys and units are
// fixed there).
//
// Every record carries its run's identity (provider, policy, scenario,
// seed) and a Time, so streams of several runs can be mixed. The fields
// set by more than one kind sit at the top, each saying which kinds set
// it; the fields of one kind (or of one group of kinds) sit in the
// embedded struct named after it, zero in a record of another kind:
//
//	KindRun        RunFacts
//	KindHandshake  Event, Seq; Answer; HandshakeFacts
//	KindAttempt    Event, Seq, Tenant, Error, Attempt, At, Fault; Answer; AttemptFacts
//	KindAttack     Event, Seq, Tenant, Error, Attempt; Answer; AttackFacts
//	KindRestart    Restart, Error
//	KindDisable    Event, Seq, Tenant, Attempt; Disabling
//	KindEvent      Event, Seq, Tenant, At, Fault; EventFacts
//	KindEffects    Event, Seq; EffectsFacts
//	KindEnd        Error; Disabling; EndFacts
type Record struct {
	Kind     string
	Provider string
	Policy   string
	Scenario string
	Seed     uint64

	// Time is the virtual time of the record: of the attempt, the
	// event's fate, the restart, the disable; the run's start (run,
	// handshake records) or end (effects, end records).
	Time time.Time
	// EventID is the event's dedup id (attempt, attack, handshake, disable,
	// event and effects records); an attack's is its own, which the
	// provider never sends, so any side effect on it is the attack's.
	EventID string
	// Seq is the event's index in the workload, from 0 (same records; -1
	// for a handshake).
	Seq int
	// Tenant names the event's sender as its provider does (a shop's
	// domain, a Connect account, an installation id) in a run of several
	// tenants: attempt, attack, event and disable records; "" for one.
	Tenant string
	// Error is the transport error (attempt and attack records), why a
	// restart failed (restart records), or the effects oracle's failure
	// after "effects oracle: " (end records).
	Error string
	// Attempt is the attempt's number, from 1 (attempt records); the
	// attempt an attack was sent beside (attack records, 0 for the
	// provider's probe) or that disabled a tenant (disable records).
	Attempt int
	// At is the virtual time since the event's first attempt (attempt
	// and event records).
	At time.Duration
	// Fault names the faults injected into the attempt (attempt records),
	// or those that decided an event's fate with no attempt sent (event
	// records); "" when none.
	Fault string
	// Restart counts the handler's restarts, from 1 (restart records).
	Restart int

	Answer
	AttemptFacts
	AttackFacts
	HandshakeFacts
	EventFacts
	EffectsFacts
	Disabling
	RunFacts
	EndFacts
}

// Answer is what the provider and the handler saw of one request:
// attempt, attack and handshake records.
type Answer struct {
	// Status is the HTTP status the provider saw, 0 when none.
	Status int
	// HandlerStatus is what the handler really answered, 0 when it did
	// not answer (or was never reached).
	HandlerStatus int
	// Reached says whether the request reached the handler.
	Reached bool
	// Latency is the real time from the request being written to the end
	// of the answer (connecting excluded: that is the network's time, not
	// the handler's), measured in this run, to the microsecond.
	Latency time.Duration
}

// AttemptFacts are the fields of attempt records.
type AttemptFacts struct {
	// Outcome is how the provider classified the attempt.
	Outcome Outcome
	// AddedLatency is virtual latency a fault added on top, to the
	// microsecond.
	AddedLatency time.Duration
	// Object names what the event is about; events about one object were
	// created in Seq order.
	Object string
	// Copy is 1 for the second of two identical requests the provider
	// sent at once for one attempt (the duplicate fault), 0 otherwise.
	Copy int
	// Subscription is, for an attempt the provider sent through several
	// subscriptions at once (the fan-out fault), which one sent this
	// request, from 0; such requests share the event's dedup id.
	Subscription int
	// Manual says the attempt was a resend by hand after the schedule
	// ended.
	Manual bool
	// Outage says an injected outage (a fault of type outage) applied to
	// the attempt.
	Outage bool
	// TLS says what was wrong with the target's certificate when the
	// connection failed in its TLS handshake ("" otherwise).
	TLS TLSProblem
	// RedirectRefused is, for a redirect outcome, where the handler's
	// redirect led when retrysim refused to connect there: not this
	// machine, and remote targets not allowed (Config.AllowRemote). The
	// provider would have followed it; nothing was sent there. A password
	// in it is masked; "" otherwise.
	RedirectRefused string
	// RedirectUnreached is, for a connection_failed attempt, where the
	// handler's redirect led when the provider followed it and no
	// connection could be made there (the address refused it, no route):
	// the request never reached that address, and Reached says the
	// handler's own. A password in it is masked; "" otherwise.
	RedirectUnreached string
	// Signal says what the answer meant beyond its outcome, by the
	// policy's status rules: retries stopped (X-Slack-No-Retry: 1), the
	// endpoint disabled (410), the next attempt delayed by Retry-After, or
	// a failure the provider does not retry (Twilio's rp).
	Signal string
}

// AttackFacts are the fields of attack records: a request the handler
// must reject, sent beside an attempt (a signature attack from the
// scenario), or (Probe) the provider's own invalid-signature probe. With
// NotApplicable set nothing was sent: the record says once per run why
// the provider's scheme makes the attack pointless.
type AttackFacts struct {
	// Attack is the attack's type ("bad-signature", "tampered-body",
	// "missing-signature", "stale-timestamp", "replayed"), AttackChange
	// how a tampered body was changed ("value", "spacing"), AttackDetail
	// what was done, in words.
	Attack       string
	AttackChange string
	AttackDetail string
	// Probe says the attack was the provider's own invalid-signature
	// probe, which removes the endpoint unless it is answered with
	// ProbeExpect.
	Probe       bool
	ProbeExpect int
	// NotApplicable says why the attack was not sent at all.
	NotApplicable string
	// Undetectable says why no signature check can catch the attack (a
	// replay where nothing signed is time-bound): a 2xx is then no
	// failure, only a side effect is.
	Undetectable string
	// OriginalStatus is, for a replay, the handler's answer to the
	// original request (0 when it did not answer).
	OriginalStatus int
}

// HandshakeFacts are the fields of handshake records: the provider's
// handshake when the endpoint is set up, before any event (Slack's
// url_verification, Zoom's endpoint.url_validation, Discord's PING). An
// endpoint whose handshake failed is never enabled.
type HandshakeFacts struct {
	// Handshake names it, HandshakeExpect says the answer the provider
	// accepts, and HandshakeProblem, when set, why the answer was not it.
	Handshake        string
	HandshakeExpect  string
	HandshakeProblem string
}

// EventFacts are the fields of event records, which close an event.
type EventFacts struct {
	// Fate is the event's fate once nothing more will be sent.
	Fate string
	// Attempts is the number of attempts made.
	Attempts int
	// Type is, in a run of real deliveries (Config.Incoming), the event's
	// type as its delivery gave it ("" when it gave none): such a run's
	// events are of the types that came, which its run record cannot
	// know. "" in a run of generated events, whose run record names their
	// type (RunFacts.EventType).
	Type string
}

// EffectsFacts are the fields of effects records: how often the handler
// processed an event, as the effects oracle told after the run.
type EffectsFacts struct {
	// Effects is how many times during the run, EffectsBefore how many
	// times before it.
	Effects       int
	EffectsBefore int
}

// Disabling says what disabled an endpoint: disable records (a tenant's
// subscription, in a run of several) and end records (the endpoint).
type Disabling struct {
	// DisabledBy says what disabled it, in words; DisabledCause which
	// kind of thing it was.
	DisabledBy    string
	DisabledCause DisableCause
}

// RunFacts are the fields of run records: the run's context and the
// policy's figures.
type RunFacts struct {
	// RunID is the run id mixed into every dedup id of the run (see
	// Config.RunID).
	RunID  string
	Target string
	// Events is the number of events the run was to deliver; 0 when it
	// took real deliveries as they came (Config.Incoming), whose number
	// is then that of its event records.
	Events int
	// Summary is the policy's schedule in words.
	Summary    string
	MaxAttempt int
	// Window is the span of the policy's schedule, from the first attempt
	// to the last; Timeout how long the provider waits for an answer;
	// ManualRedelivery how long after an event it can be resent by hand.
	Window           time.Duration
	Timeout          time.Duration
	ManualRedelivery time.Duration
	// DisableRule is the policy's endpoint-disable rule in words;
	// DisableN, DisableWithin, DisableRate, DisableMinAttempts and
	// DisableFailingFor its figures (policies.DisableRule).
	DisableN           int
	DisableWithin      time.Duration
	DisableRule        string
	DisableRate        float64
	DisableMinAttempts int
	DisableFailingFor  time.Duration
	DedupField         string
	// DedupDeliveryField names the id each subscription's delivery of an
	// event has of its own, where the provider gives one
	// (policies.FanOut): a key that stops retries but not fan-out.
	DedupDeliveryField string
	// EventType is the type of the events the run delivers; "" in a run
	// of real deliveries, whose event records each give their own
	// (EventFacts.Type).
	EventType string
	// Outages are the scenario's outage windows, [from, to] since the
	// start of the run, whole whether or not attempts met them.
	Outages [][2]time.Duration
	// AdvisedTolerance is, for a scheme that signs a timestamp but whose
	// provider documents no bound on its age (Discord, Zoom), the bound
	// that is good practice: advice, never a requirement.
	AdvisedTolerance time.Duration
	// Schedule is when each attempt happens, from the first, if every
	// earlier one failed: the policy's worked schedule, so a saved stream
	// can state the worst case without the policy.
	Schedule []time.Duration
	// Start is the virtual time the run started at.
	Start *time.Time
	// WallStart is the real (wall-clock) time the run started, read from
	// Config.WallClock when the run record is written; nil in streams
	// written before it was recorded.
	WallStart *time.Time
	// Tenants is the number of senders the run's events came from, 0 for
	// one; Shard and Shards say which shard (from 0) of how many a
	// sharded run is, Shards 0 for a whole run.
	Tenants int
	Shard   int
	Shards  int
	// DefaultScenario says nobody chose the scenario: it is the
	// command's default.
	DefaultScenario bool
	// DryRun says the run only modelled the handler and sent nothing.
	DryRun bool
}

// EndFacts are the fields of end records, which close a run.
type EndFacts struct {
	Interrupted bool
	// DisabledAt is when the endpoint was disabled, nil when it was not
	// (Disabling says by what).
	DisabledAt *time.Time
	// Pauses are the spans in which the provider had disabled the
	// endpoint for a while (a disable rule's backoff), [from, to] since
	// the start of the run.
	Pauses       [][2]time.Duration
	EffectsKnown bool
	// EffectsProblem is what was wrong with the effects oracle's answer
	// when it did not answer as expected (EffectsError.Problem); Error
	// says the same after "effects oracle: ".
	EffectsProblem string
	// HandlersRunning counts the in-process handler calls still running
	// when the effects were read and the run ended: calls the provider
	// cut off that did not return within one more timeout. The effects,
	// and so the verdict, may miss theirs.
	HandlersRunning int
	// EffectsUnsettled says the effects may miss the handler's late work:
	// requests had reached it and got no answer, and the oracle's answer
	// was still changing (or could not be read again, or the run was
	// interrupted) when retrysim stopped reading it.
	EffectsUnsettled bool
	// SettleWait is the real time the engine read the effects oracle of
	// a handler behind a URL for, after the last attempt, until its
	// answer settled or SettleLimit (Config.SettleLimit) passed; both are 0
	// when the oracle was read once, when the handler's work was done.
	SettleWait  time.Duration
	SettleLimit time.Duration
	// EffectsPending is the work the oracle still reported queued when
	// retrysim stopped reading it, unsettled (EffectsUnsettled); 0 when it
	// reported none, or reports no pending work.
	EffectsPending int
	// SettledOnQuiet is the quiet window the effects settled on when the
	// oracle reports no pending work and the handler was seen working
	// after it answered (ack-first): the verdict rests on that quiet
	// alone. 0 otherwise.
	SettledOnQuiet time.Duration
}
