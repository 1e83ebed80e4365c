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
	// Redirect: the answer was a 3xx the provider does not follow, or more
	// redirects than it follows.
	Redirect Outcome = "redirect"
	// Timeout: no answer within the provider's timeout.
	Timeout Outcome = "timeout"
	// ConnectionFailed: the connection failed; Reached says whether the
	// request had been sent before it did (a connection closed or reset
	// before any answer came back).
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
	// provider's own invalid-signature probe. Event is the attack's own
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
// reads back. Every record carries its run's identity (provider, policy,
// scenario, seed) so streams of several runs can be mixed; the other fields
// are set according to Kind.
type Record struct {
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Policy   string `json:"policy"`
	Scenario string `json:"scenario"`
	Seed     uint64 `json:"seed"`

	// Event is the event's dedup id (attempt, event and effects records).
	Event string `json:"event,omitempty"`
	// Seq is the event's index in the workload, from 0.
	Seq int `json:"seq"`
	// N is the attempt number, from 1 (attempt records); in event records,
	// the number of attempts made.
	N int `json:"n,omitempty"`
	// Time is the virtual time of the attempt, or of the event's fate.
	Time time.Time `json:"time"`
	// AtSeconds is the virtual time since the event's first attempt.
	AtSeconds float64 `json:"at_seconds"`
	// Outcome is how the provider classified the attempt.
	Outcome Outcome `json:"outcome,omitempty"`
	// Status is the HTTP status the provider saw, 0 when none.
	Status int `json:"status"`
	// HandlerStatus is what the handler really answered, 0 when it did not
	// answer (or was never reached).
	HandlerStatus int `json:"handler_status"`
	// Reached says whether the request reached the handler.
	Reached bool `json:"reached_handler"`
	// LatencyMS is the real time from the request being written to the end
	// of the answer (connecting excluded: that is the network's time, not
	// the handler's), measured in this run.
	LatencyMS float64 `json:"latency_ms"`
	// AddedLatencyMS is virtual latency a fault added on top.
	AddedLatencyMS float64 `json:"added_latency_ms,omitempty"`
	// Fault names the faults injected into the attempt, "" when none.
	Fault string `json:"fault"`
	// Object names what the event is about; events about one object were
	// created in Seq order (attempt records).
	Object string `json:"object,omitempty"`
	// Copy is 1 for the second of two identical requests the provider sent
	// at once for one attempt (the duplicate fault), 0 otherwise.
	Copy int `json:"copy,omitempty"`
	// Subscription is, for an attempt the provider sent through several
	// subscriptions at once (the fan-out fault), which one sent this
	// request, from 0; such requests share the event's dedup id.
	Subscription int `json:"subscription,omitempty"`
	// Manual says the attempt was a resend by hand after the schedule ended.
	Manual bool `json:"manual,omitempty"`
	// Error is the transport error, if any.
	Error string `json:"error,omitempty"`
	// Outage says an injected outage (a fault of type outage) applied to
	// the attempt.
	Outage bool `json:"outage,omitempty"`
	// TLS says what was wrong with the target's certificate when the
	// connection failed in its TLS handshake ("" otherwise).
	TLS TLSProblem `json:"tls_problem,omitempty"`
	// Tenant names the event's sender as its provider does (a shop's
	// domain, a Connect account, an installation id) in a run of several
	// tenants: attempt, attack, event and disable records; "" for one.
	Tenant string `json:"tenant,omitempty"`
	// Signal says what the answer meant beyond its outcome, by the policy's
	// status rules: retries stopped (X-Slack-No-Retry: 1), the endpoint
	// disabled (410), the next attempt delayed by Retry-After, or a failure
	// the provider does not retry (Twilio's rp).
	Signal string `json:"signal,omitempty"`

	// Attack records: the attack's type ("bad-signature", "tampered-body",
	// "missing-signature", "stale-timestamp", "replayed"), how a tampered
	// body was changed ("value", "spacing"), and what was done, in words.
	Attack       string `json:"attack,omitempty"`
	AttackChange string `json:"attack_change,omitempty"`
	AttackDetail string `json:"attack_detail,omitempty"`
	// Probe says the attack was the provider's own invalid-signature probe,
	// which removes the endpoint unless it is answered with ProbeExpect.
	Probe       bool `json:"probe,omitempty"`
	ProbeExpect int  `json:"probe_expect,omitempty"`
	// NotApplicable says why the attack was not sent at all.
	NotApplicable string `json:"not_applicable,omitempty"`
	// Undetectable says why no signature check can catch the attack (a
	// replay where nothing signed is time-bound): a 2xx is then no failure,
	// only a side effect is.
	Undetectable string `json:"undetectable,omitempty"`
	// OriginalStatus is, for a replay, the handler's answer to the original
	// request (0 when it did not answer).
	OriginalStatus int `json:"original_status,omitempty"`

	// Handshake records (KindHandshake).
	Handshake        string `json:"handshake,omitempty"`
	HandshakeExpect  string `json:"handshake_expect,omitempty"`
	HandshakeProblem string `json:"handshake_problem,omitempty"`

	// Fate is an event's fate (event records).
	Fate string `json:"fate,omitempty"`
	// Effects is how many times the handler processed the event during
	// the run, and EffectsBefore how many times before it, by the oracle
	// (effects records).
	Effects       int `json:"effects,omitempty"`
	EffectsBefore int `json:"effects_before,omitempty"`

	// Run records: the run's context. RunID is the run id mixed into
	// every dedup id of the run (see Config.RunID).
	RunID  string `json:"run_id,omitempty"`
	Target string `json:"target,omitempty"`
	// Events is the number of events the run was to deliver; 0 when it
	// took real deliveries as they came (Config.Incoming), whose number
	// is then that of its event records.
	Events     int     `json:"events,omitempty"`
	Summary    string  `json:"policy_summary,omitempty"`
	MaxAttempt int     `json:"max_attempts,omitempty"`
	WindowS    float64 `json:"window_seconds,omitempty"`
	TimeoutS   float64 `json:"timeout_seconds,omitempty"`
	ManualS    float64 `json:"manual_redelivery_seconds,omitempty"`
	DisableN   int     `json:"disable_consecutive_failures,omitempty"`
	DisableS   float64 `json:"disable_within_seconds,omitempty"`
	// DisableRule is the policy's endpoint-disable rule in words;
	// DisableRate, DisableMinAttempts and DisableForS its other forms'
	// figures (policies.DisableRule), besides DisableN and DisableS.
	DisableRule        string  `json:"disable_rule,omitempty"`
	DisableRate        float64 `json:"disable_failure_rate,omitempty"`
	DisableMinAttempts int     `json:"disable_min_attempts,omitempty"`
	DisableForS        float64 `json:"disable_failing_for_seconds,omitempty"`
	DedupField         string  `json:"dedup_field,omitempty"`
	// DedupDeliveryField names the id each subscription's delivery of an
	// event has of its own, where the provider gives one
	// (policies.FanOut): a key that stops retries but not fan-out.
	DedupDeliveryField string `json:"dedup_delivery_field,omitempty"`
	// EventType is the type of the events the run delivers (run records).
	EventType string `json:"event_type,omitempty"`
	// OutagesS are the scenario's outage windows, [from, to] in seconds
	// since the start of the run, whole whether or not attempts met them
	// (run records).
	OutagesS [][2]float64 `json:"outage_windows_seconds,omitempty"`
	// PausesS are the spans in which the provider had disabled the
	// endpoint for a while (a disable rule's backoff), [from, to] in
	// seconds since the start of the run (end records).
	PausesS [][2]float64 `json:"pause_windows_seconds,omitempty"`
	// AdvisedToleranceS is, for a scheme that signs a timestamp but whose
	// provider documents no bound on its age (Discord, Zoom), the bound
	// that is good practice, in seconds: advice, never a requirement.
	AdvisedToleranceS float64 `json:"advised_tolerance_seconds,omitempty"`
	// ScheduleS is when each attempt happens, in seconds from the first,
	// if every earlier one failed: the policy's worked schedule, so a saved
	// stream can state the worst case without the policy.
	ScheduleS []float64 `json:"schedule_offsets_seconds,omitempty"`
	// Start is the virtual time the run started at (run records).
	Start *time.Time `json:"start,omitempty"`
	// WallStart is the real (wall-clock) time the run started, read from
	// Config.WallClock when the run record is written (run records); nil
	// in streams written before it was recorded.
	WallStart *time.Time `json:"wall_start,omitempty"`

	// Tenants is the number of senders the run's events came from, 0 for
	// one; Shard and Shards say which shard (from 0) of how many a
	// sharded run is, Shards 0 for a whole run (run records).
	Tenants int `json:"tenants,omitempty"`
	Shard   int `json:"shard,omitempty"`
	Shards  int `json:"shards,omitempty"`

	// DefaultScenario says nobody chose the scenario: it is the command's
	// default (run records).
	DefaultScenario bool `json:"default_scenario,omitempty"`
	// DryRun says the run only modelled the handler and sent nothing (run
	// records).
	DryRun bool `json:"dry_run,omitempty"`

	// End records.
	Interrupted bool       `json:"interrupted,omitempty"`
	DisabledAt  *time.Time `json:"disabled_at,omitempty"`
	// DisabledBy says what disabled the endpoint, in words; DisabledCause
	// says which kind of thing it was.
	DisabledBy    string       `json:"disabled_by,omitempty"`
	DisabledCause DisableCause `json:"disabled_cause,omitempty"`
	EffectsKnown  bool         `json:"effects_known,omitempty"`
	// EffectsProblem is what was wrong with the effects oracle's answer
	// when it did not answer as expected (EffectsError.Problem); Error
	// says the same after "effects oracle: ".
	EffectsProblem string `json:"effects_problem,omitempty"`
	// HandlersRunning counts the in-process handler calls still running
	// when the effects were read and the run ended: calls the provider cut
	// off that did not return within one more timeout. The effects, and so
	// the verdict, may miss theirs.
	HandlersRunning int `json:"handlers_running,omitempty"`
	// EffectsUnsettled says the effects may miss the handler's late work:
	// requests had reached it and got no answer, and the oracle's answer
	// was still changing (or could not be read again, or the run was
	// interrupted) when retrysim stopped reading it.
	EffectsUnsettled bool `json:"effects_unsettled,omitempty"`
	// SettleS is the real time, in seconds, the engine read the effects
	// oracle of a handler behind a URL for, after the last attempt, until
	// its answer settled or SettleLimitS (Config.Settle) passed; both are 0
	// when the oracle was read once, when the handler's work was done.
	SettleS      float64 `json:"settle_seconds,omitempty"`
	SettleLimitS float64 `json:"settle_limit_seconds,omitempty"`
	// EffectsPending is the work the oracle still reported queued when
	// retrysim stopped reading it, unsettled (EffectsUnsettled); 0 when it
	// reported none, or reports no pending work.
	EffectsPending int `json:"effects_pending,omitempty"`
	// SettledOnQuietS is the quiet window, in seconds, the effects settled
	// on when the oracle reports no pending work and the handler was seen
	// working after it answered (ack-first): the verdict rests on that
	// quiet alone. 0 otherwise.
	SettledOnQuietS float64 `json:"settled_on_quiet_seconds,omitempty"`
}
