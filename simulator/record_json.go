package simulator

import (
	"encoding/json"
	"io"
	"math"
	"time"
)

// The JSON Lines contract: a Record is written as one flat object whose
// keys, order and units are recordJSON's, the same for every kind (the
// fields a kind does not set are left out, or written as zero where the
// key was always written). Inside, durations are time.Duration; they
// become seconds or milliseconds here only. Three of the record's fields
// share the key "n": the attempt's number (attempt, attack, disable
// records), the attempts made (event records) and the restart's number
// (restart records). Two share "event_type": the run's events' type (run
// records) and a real delivery's own (event records).

// recordJSON is a Record as the stream spells it.
type recordJSON struct {
	Kind               string       `json:"kind"`
	Provider           string       `json:"provider"`
	Policy             string       `json:"policy"`
	Scenario           string       `json:"scenario"`
	Seed               uint64       `json:"seed"`
	Event              string       `json:"event,omitempty"`
	Seq                int          `json:"seq"`
	N                  int          `json:"n,omitempty"`
	Time               time.Time    `json:"time"`
	AtSeconds          float64      `json:"at_seconds"`
	Outcome            Outcome      `json:"outcome,omitempty"`
	Status             int          `json:"status"`
	HandlerStatus      int          `json:"handler_status"`
	Reached            bool         `json:"reached_handler"`
	LatencyMS          float64      `json:"latency_ms"`
	AddedLatencyMS     float64      `json:"added_latency_ms,omitempty"`
	Fault              string       `json:"fault"`
	Object             string       `json:"object,omitempty"`
	Copy               int          `json:"copy,omitempty"`
	Subscription       int          `json:"subscription,omitempty"`
	Manual             bool         `json:"manual,omitempty"`
	Error              string       `json:"error,omitempty"`
	Outage             bool         `json:"outage,omitempty"`
	TLS                TLSProblem   `json:"tls_problem,omitempty"`
	Tenant             string       `json:"tenant,omitempty"`
	Signal             string       `json:"signal,omitempty"`
	RedirectRefused    string       `json:"redirect_refused,omitempty"`
	RedirectUnreached  string       `json:"redirect_unreached,omitempty"`
	Attack             string       `json:"attack,omitempty"`
	AttackChange       string       `json:"attack_change,omitempty"`
	AttackDetail       string       `json:"attack_detail,omitempty"`
	Probe              bool         `json:"probe,omitempty"`
	ProbeExpect        int          `json:"probe_expect,omitempty"`
	NotApplicable      string       `json:"not_applicable,omitempty"`
	Undetectable       string       `json:"undetectable,omitempty"`
	OriginalStatus     int          `json:"original_status,omitempty"`
	Handshake          string       `json:"handshake,omitempty"`
	HandshakeExpect    string       `json:"handshake_expect,omitempty"`
	HandshakeProblem   string       `json:"handshake_problem,omitempty"`
	Fate               string       `json:"fate,omitempty"`
	Effects            int          `json:"effects,omitempty"`
	EffectsBefore      int          `json:"effects_before,omitempty"`
	RunID              string       `json:"run_id,omitempty"`
	Target             string       `json:"target,omitempty"`
	Events             int          `json:"events,omitempty"`
	Summary            string       `json:"policy_summary,omitempty"`
	MaxAttempt         int          `json:"max_attempts,omitempty"`
	WindowS            float64      `json:"window_seconds,omitempty"`
	TimeoutS           float64      `json:"timeout_seconds,omitempty"`
	ManualS            float64      `json:"manual_redelivery_seconds,omitempty"`
	DisableN           int          `json:"disable_consecutive_failures,omitempty"`
	DisableS           float64      `json:"disable_within_seconds,omitempty"`
	DisableRule        string       `json:"disable_rule,omitempty"`
	DisableRate        float64      `json:"disable_failure_rate,omitempty"`
	DisableMinAttempts int          `json:"disable_min_attempts,omitempty"`
	DisableForS        float64      `json:"disable_failing_for_seconds,omitempty"`
	DedupField         string       `json:"dedup_field,omitempty"`
	DedupDeliveryField string       `json:"dedup_delivery_field,omitempty"`
	EventType          string       `json:"event_type,omitempty"`
	OutagesS           [][2]float64 `json:"outage_windows_seconds,omitempty"`
	PausesS            [][2]float64 `json:"pause_windows_seconds,omitempty"`
	AdvisedToleranceS  float64      `json:"advised_tolerance_seconds,omitempty"`
	ScheduleS          []float64    `json:"schedule_offsets_seconds,omitempty"`
	Start              *time.Time   `json:"start,omitempty"`
	WallStart          *time.Time   `json:"wall_start,omitempty"`
	Tenants            int          `json:"tenants,omitempty"`
	Shard              int          `json:"shard,omitempty"`
	Shards             int          `json:"shards,omitempty"`
	DefaultScenario    bool         `json:"default_scenario,omitempty"`
	DryRun             bool         `json:"dry_run,omitempty"`
	Interrupted        bool         `json:"interrupted,omitempty"`
	DisabledAt         *time.Time   `json:"disabled_at,omitempty"`
	DisabledBy         string       `json:"disabled_by,omitempty"`
	DisabledCause      DisableCause `json:"disabled_cause,omitempty"`
	EffectsKnown       bool         `json:"effects_known,omitempty"`
	EffectsProblem     string       `json:"effects_problem,omitempty"`
	HandlersRunning    int          `json:"handlers_running,omitempty"`
	EffectsUnsettled   bool         `json:"effects_unsettled,omitempty"`
	SettleS            float64      `json:"settle_seconds,omitempty"`
	SettleLimitS       float64      `json:"settle_limit_seconds,omitempty"`
	EffectsPending     int          `json:"effects_pending,omitempty"`
	SettledOnQuietS    float64      `json:"settled_on_quiet_seconds,omitempty"`
}

// RecordEncoder writes records as the lines of a results stream, as
// MarshalJSON does, without encoding/json's second pass over what a
// Marshaler returns (a third of the time of writing a stream).
type RecordEncoder struct {
	enc *json.Encoder
	w   recordJSON
}

// NewRecordEncoder returns an encoder of records to w, one line each.
func NewRecordEncoder(w io.Writer) *RecordEncoder {
	return &RecordEncoder{enc: json.NewEncoder(w)}
}

// Encode writes r as one line.
func (e *RecordEncoder) Encode(r *Record) error {
	e.w = r.toJSON()
	return e.enc.Encode(&e.w)
}

// MarshalJSON writes r as one line of the results stream.
func (r Record) MarshalJSON() ([]byte, error) {
	w := r.toJSON()
	return json.Marshal(&w)
}

// UnmarshalJSON reads one line of the results stream into r.
func (r *Record) UnmarshalJSON(b []byte) error {
	var w recordJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	w.toRecord(r)
	return nil
}

// eventType is the stream's "event_type" of r's kind.
func (r *Record) eventType() string {
	if r.Kind == KindEvent {
		return r.Type
	}
	return r.RunFacts.EventType
}

// n is the stream's "n" of r's kind.
func (r *Record) n() int {
	switch r.Kind {
	case KindEvent:
		return r.Attempts
	case KindRestart:
		return r.Restart
	}
	return r.Attempt
}

func (r *Record) toJSON() recordJSON {
	return recordJSON{
		Kind: r.Kind, Provider: r.Provider, Policy: r.Policy, Scenario: r.Scenario, Seed: r.Seed,
		Event: r.EventID, Seq: r.Seq, N: r.n(), Time: r.Time, AtSeconds: r.At.Seconds(),
		Outcome: r.Outcome, Status: r.Status, HandlerStatus: r.HandlerStatus, Reached: r.Reached,
		LatencyMS: millis(r.Latency), AddedLatencyMS: millis(r.AddedLatency), Fault: r.Fault, Object: r.Object,
		Copy: r.Copy, Subscription: r.Subscription, Manual: r.Manual, Error: r.Error, Outage: r.Outage,
		TLS: r.TLS, Tenant: r.Tenant, Signal: r.Signal, RedirectRefused: r.RedirectRefused, RedirectUnreached: r.RedirectUnreached,

		Attack: r.Attack, AttackChange: r.AttackChange, AttackDetail: r.AttackDetail,
		Probe: r.Probe, ProbeExpect: r.ProbeExpect, NotApplicable: r.NotApplicable,
		Undetectable: r.Undetectable, OriginalStatus: r.OriginalStatus,

		Handshake: r.Handshake, HandshakeExpect: r.HandshakeExpect, HandshakeProblem: r.HandshakeProblem,

		Fate: r.Fate, Effects: r.Effects, EffectsBefore: r.EffectsBefore,

		RunID: r.RunID, Target: r.Target, Events: r.Events, Summary: r.Summary, MaxAttempt: r.MaxAttempt,
		WindowS: r.Window.Seconds(), TimeoutS: r.Timeout.Seconds(), ManualS: r.ManualRedelivery.Seconds(),
		DisableN: r.DisableN, DisableS: r.DisableWithin.Seconds(),
		DisableRule: r.DisableRule, DisableRate: r.DisableRate, DisableMinAttempts: r.DisableMinAttempts,
		DisableForS: r.DisableFailingFor.Seconds(), DedupField: r.DedupField, DedupDeliveryField: r.DedupDeliveryField,
		EventType: r.eventType(), OutagesS: spansSeconds(r.Outages), PausesS: spansSeconds(r.Pauses),
		AdvisedToleranceS: r.AdvisedTolerance.Seconds(), ScheduleS: durationsSeconds(r.Schedule), Start: r.Start, WallStart: r.WallStart,
		Tenants: r.Tenants, Shard: r.Shard, Shards: r.Shards,
		DefaultScenario: r.DefaultScenario, DryRun: r.DryRun,

		Interrupted: r.Interrupted, DisabledAt: r.DisabledAt, DisabledBy: r.DisabledBy, DisabledCause: r.DisabledCause,
		EffectsKnown: r.EffectsKnown, EffectsProblem: r.EffectsProblem, HandlersRunning: r.HandlersRunning,
		EffectsUnsettled: r.EffectsUnsettled, SettleS: r.SettleWait.Seconds(), SettleLimitS: r.SettleLimit.Seconds(),
		EffectsPending: r.EffectsPending, SettledOnQuietS: r.SettledOnQuiet.Seconds(),
	}
}

// toRecord sets r from w; r's other fields are left as they are.
func (w *recordJSON) toRecord(r *Record) {
	*r = Record{
		Kind: w.Kind, Provider: w.Provider, Policy: w.Policy, Scenario: w.Scenario, Seed: w.Seed,
		Time: w.Time, EventID: w.Event, Seq: w.Seq, Tenant: w.Tenant, Error: w.Error,
		At: seconds(w.AtSeconds), Fault: w.Fault,
		Answer: Answer{Status: w.Status, HandlerStatus: w.HandlerStatus, Reached: w.Reached, Latency: fromMillis(w.LatencyMS)},
		AttemptFacts: AttemptFacts{
			Outcome: w.Outcome, AddedLatency: fromMillis(w.AddedLatencyMS), Object: w.Object, Copy: w.Copy,
			Subscription: w.Subscription, Manual: w.Manual, Outage: w.Outage, TLS: w.TLS, Signal: w.Signal,
			RedirectRefused: w.RedirectRefused, RedirectUnreached: w.RedirectUnreached,
		},
		AttackFacts: AttackFacts{
			Attack: w.Attack, AttackChange: w.AttackChange, AttackDetail: w.AttackDetail,
			Probe: w.Probe, ProbeExpect: w.ProbeExpect, NotApplicable: w.NotApplicable,
			Undetectable: w.Undetectable, OriginalStatus: w.OriginalStatus,
		},
		HandshakeFacts: HandshakeFacts{Handshake: w.Handshake, HandshakeExpect: w.HandshakeExpect, HandshakeProblem: w.HandshakeProblem},
		EventFacts:     EventFacts{Fate: w.Fate},
		EffectsFacts:   EffectsFacts{Effects: w.Effects, EffectsBefore: w.EffectsBefore},
		Disabling:      Disabling{DisabledBy: w.DisabledBy, DisabledCause: w.DisabledCause},
		RunFacts: RunFacts{
			RunID: w.RunID, Target: w.Target, Events: w.Events, Summary: w.Summary, MaxAttempt: w.MaxAttempt,
			Window: seconds(w.WindowS), Timeout: seconds(w.TimeoutS), ManualRedelivery: seconds(w.ManualS),
			DisableN: w.DisableN, DisableWithin: seconds(w.DisableS),
			DisableRule: w.DisableRule, DisableRate: w.DisableRate, DisableMinAttempts: w.DisableMinAttempts,
			DisableFailingFor: seconds(w.DisableForS), DedupField: w.DedupField, DedupDeliveryField: w.DedupDeliveryField,
			EventType: w.EventType, Outages: spansFromSeconds(w.OutagesS), AdvisedTolerance: seconds(w.AdvisedToleranceS),
			Schedule: durationsFromSeconds(w.ScheduleS), Start: w.Start, WallStart: w.WallStart,
			Tenants: w.Tenants, Shard: w.Shard, Shards: w.Shards,
			DefaultScenario: w.DefaultScenario, DryRun: w.DryRun,
		},
		EndFacts: EndFacts{
			Interrupted: w.Interrupted, DisabledAt: w.DisabledAt, Pauses: spansFromSeconds(w.PausesS),
			EffectsKnown: w.EffectsKnown, EffectsProblem: w.EffectsProblem, HandlersRunning: w.HandlersRunning,
			EffectsUnsettled: w.EffectsUnsettled, SettleWait: seconds(w.SettleS), SettleLimit: seconds(w.SettleLimitS),
			EffectsPending: w.EffectsPending, SettledOnQuiet: seconds(w.SettledOnQuietS),
		},
	}
	switch w.Kind {
	case KindEvent:
		r.Attempts = w.N
		r.Type, r.RunFacts.EventType = w.EventType, ""
	case KindRestart:
		r.Restart = w.N
	default:
		r.Attempt = w.N
	}
}

// millis is d in milliseconds, to the microsecond.
func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// fromMillis is a time in milliseconds as a Duration, to the microsecond.
func fromMillis(ms float64) time.Duration {
	return time.Duration(math.Round(ms*1000)) * time.Microsecond
}

// seconds is a time in seconds as a Duration, to the nanosecond.
func seconds(s float64) time.Duration { return time.Duration(math.Round(s * 1e9)) }

// durationsSeconds is ds in seconds; nil stays nil.
func durationsSeconds(ds []time.Duration) []float64 {
	if ds == nil {
		return nil
	}
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = d.Seconds()
	}
	return out
}

// durationsFromSeconds is durationsSeconds undone.
func durationsFromSeconds(ss []float64) []time.Duration {
	if ss == nil {
		return nil
	}
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = seconds(s)
	}
	return out
}

// spansSeconds is spans in seconds; nil stays nil.
func spansSeconds(spans [][2]time.Duration) [][2]float64 {
	if spans == nil {
		return nil
	}
	out := make([][2]float64, len(spans))
	for i, s := range spans {
		out[i] = [2]float64{s[0].Seconds(), s[1].Seconds()}
	}
	return out
}

// spansFromSeconds is spansSeconds undone.
func spansFromSeconds(spans [][2]float64) [][2]time.Duration {
	if spans == nil {
		return nil
	}
	out := make([][2]time.Duration, len(spans))
	for i, s := range spans {
		out[i] = [2]time.Duration{seconds(s[0]), seconds(s[1])}
	}
	return out
}
