package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// The JSON contract of `retrysim run --format json`, documented in docs/formats.md.
// Field names are stable.
type jsonReport struct {
	Runs                            []jsonRun `json:"runs"`
	RecommendedTTLSeconds           float64   `json:"recommended_ttl_seconds"`
	RecommendedTTLWithManualSeconds float64   `json:"recommended_ttl_with_manual_seconds"`
	// Chart is the chart file written beside the report, "" when none.
	Chart string `json:"chart,omitempty"`
}

type jsonRun struct {
	Provider string `json:"provider"`
	Policy   string `json:"policy"`
	Scenario string `json:"scenario"`
	// EventType is the type of the events delivered ("" when the stream
	// does not say).
	EventType string `json:"event_type,omitempty"`
	// DefaultScenario says the scenario was not chosen: it is the
	// command's default.
	DefaultScenario bool   `json:"default_scenario,omitempty"`
	Seed            uint64 `json:"seed"`
	RunID           string `json:"run_id,omitempty"`
	Target          string `json:"target"`
	Interrupted     bool   `json:"interrupted"`
	// RestartFailed is the restart that failed and stopped the run; absent
	// when none did.
	RestartFailed *jsonRestartFailed `json:"restart_failed,omitempty"`
	// Incomplete says the results stream stopped before the run's end
	// record (see Summary.Incomplete).
	Incomplete bool    `json:"incomplete,omitempty"`
	Verdict    Verdict `json:"verdict"`
	Detail     string  `json:"verdict_detail"`
	// Reason is the verdict's reason code (see Judge); Missing counts the
	// accepted events the effects oracle does not report.
	Reason    Reason     `json:"verdict_reason"`
	Missing   int        `json:"effects_missing,omitempty"`
	Offenders []Offender `json:"offenders,omitempty"`
	// HandlersRunning and EffectsUnsettled say the effects were read while
	// the handler may still have been at work (see Summary.EffectsCaveat).
	HandlersRunning  int  `json:"handlers_running,omitempty"`
	EffectsUnsettled bool `json:"effects_unsettled,omitempty"`
	// EffectsPending is the work the oracle still reported queued when
	// retrysim stopped reading it; SettledOnQuietSeconds the quiet window
	// an IDEMPOTENT verdict rests on when the oracle reports no pending
	// work (Caveat settled_on_quiet).
	EffectsPending        int     `json:"effects_pending,omitempty"`
	SettledOnQuietSeconds float64 `json:"settled_on_quiet_seconds,omitempty"`
	// Caveat says why a verdict that stands may miss effects.
	Caveat Caveat `json:"verdict_caveat,omitempty"`
	// SettleSeconds is how long the effects were read after the last
	// attempt until they settled (handlers behind a URL).
	SettleSeconds float64 `json:"settle_seconds,omitempty"`
	// SignatureCheck is the second verdict: enforced, not_enforced or
	// not_tested; SignatureAccepted names the attacks that got through.
	SignatureCheck    string       `json:"signature_check"`
	SignatureDetail   string       `json:"signature_check_detail"`
	SignatureAccepted []string     `json:"signature_accepted"`
	SignatureAttacks  []jsonAttack `json:"signature_attacks"`
	// SignatureAdvice is good practice the provider does not require
	// (ToleranceAdvice); no gate reads it.
	SignatureAdvice string `json:"signature_advice,omitempty"`
	// Handshake is the provider's handshake when the endpoint was set up,
	// when it sent one.
	Handshake *jsonHandshake `json:"handshake,omitempty"`
	Latency   jsonLatency    `json:"latency"`
	Gates     []jsonGate     `json:"gates,omitempty"`
	Summary   jsonSummary    `json:"summary"`
	TTL       jsonTTL        `json:"ttl"`
	// EventsComplete says Events holds every event of the run, those
	// never attempted included (with no attempts); false when the report
	// kept no per-event timelines, and then Events is empty.
	EventsComplete bool        `json:"events_complete"`
	Events         []jsonEvent `json:"events"`
}

// jsonHandshake is how the endpoint answered the provider's handshake:
// passed, or the problem with the answer (the endpoint was then never
// enabled, and got no event).
type jsonHandshake struct {
	Name    string `json:"name"`
	Passed  bool   `json:"passed"`
	Status  int    `json:"status"`
	Expect  string `json:"expect"`
	Problem string `json:"problem,omitempty"`
}

// jsonAttack is one kind of attack's result in a run.
type jsonAttack struct {
	Attack        string `json:"attack"`
	Probe         bool   `json:"probe,omitempty"`
	NotApplicable string `json:"not_applicable,omitempty"`
	Undetectable  string `json:"undetectable,omitempty"`
	Detail        string `json:"detail,omitempty"`
	Sent          int    `json:"sent"`
	Answered      int    `json:"answered"`
	Rejected      int    `json:"rejected"`
	Accepted      int    `json:"accepted"`
	// Statuses counts the handler's answers by status.
	Statuses map[string]int `json:"statuses"`
	// SideEffects is null when the run had no effects oracle, or the
	// attack was not sent.
	SideEffects *int `json:"side_effects"`
	// GotThrough says the handler let the attack through.
	GotThrough bool `json:"got_through"`
}

// jsonLatency is the handler's real response-time distribution and the
// headroom to each provider's timeout.
type jsonLatency struct {
	Measured bool `json:"measured"`
	Answers  int  `json:"answers"`
	// CutOff counts attempts that reached the handler and got no answer
	// within the run's timeout (not in the percentiles).
	CutOff int `json:"cut_off"`
	// The percentiles are null when no answer came (nothing was sent, or
	// every attempt was cut off): there is no time to give.
	P50MS    *float64       `json:"p50_ms"`
	P95MS    *float64       `json:"p95_ms"`
	P99MS    *float64       `json:"p99_ms"`
	MaxMS    *float64       `json:"max_ms"`
	Headroom []jsonHeadroom `json:"headroom"`
}

type jsonHeadroom struct {
	Policy         string  `json:"policy"`
	InUse          bool    `json:"in_use,omitempty"`
	TimeoutSeconds float64 `json:"timeout_seconds"`
	HeadroomMS     float64 `json:"headroom_ms"`
	Over           int     `json:"over_timeout"`
	Unmeasured     int     `json:"unmeasured,omitempty"`
	Verdict        string  `json:"verdict"`
}

type jsonSummary struct {
	Events          int `json:"events"`
	Attempts        int `json:"attempts"`
	Delivered       int `json:"delivered"`
	LostEvents      int `json:"lost_events"`
	HandlerArrivals int `json:"handler_arrivals"`
	// DuplicateArrivals counts arrivals after the handler took the event
	// in; RefusedArrivals those it answered 4xx before that (see Summary).
	DuplicateArrivals     int      `json:"duplicate_arrivals"`
	RefusedArrivals       int      `json:"refused_arrivals"`
	DuplicateEffects      *int     `json:"duplicate_effects"`
	DisabledAtSeconds     *float64 `json:"disabled_at_seconds"`
	MaxArrivalSpanSeconds float64  `json:"max_arrival_span_seconds"`
	// LostToDisable counts the events lost because the endpoint was
	// disabled; LostToDisableEvents lists the first of them (at most 100).
	LostToDisable       int       `json:"lost_to_disable"`
	LostToDisableEvents []string  `json:"lost_to_disable_events"`
	Restarts            int       `json:"restarts"`
	RestartsAtSeconds   []float64 `json:"restarts_at_seconds"`
	ReorderedPairs      int       `json:"reordered_pairs"`
	// Tenants is said for a run of several tenants only.
	Tenants *jsonTenants `json:"tenants,omitempty"`
}

// jsonRestartFailed is the restart that stopped a run.
type jsonRestartFailed struct {
	AtSeconds float64 `json:"at_seconds"`
	Error     string  `json:"error"`
}

// jsonTenants is what a run of several tenants says about them.
type jsonTenants struct {
	Tenants  int                 `json:"tenants"`
	Shard    *int                `json:"shard,omitempty"`
	Shards   int                 `json:"shards,omitempty"`
	Disabled []jsonTenantDisable `json:"disabled"`
	// LostBy lists the tenants that lost events, most first.
	LostBy []jsonTenantLost `json:"lost_by_tenant"`
}

type jsonTenantDisable struct {
	Tenant    string  `json:"tenant"`
	AtSeconds float64 `json:"at_seconds"`
	By        string  `json:"by"`
	Cause     string  `json:"cause"`
}

type jsonTenantLost struct {
	Tenant string `json:"tenant"`
	Lost   int    `json:"lost"`
}

func jsonTenantsOf(r *Summary) *jsonTenants {
	if !r.ManyTenants() {
		return nil
	}
	t := &jsonTenants{Tenants: r.Tenants, Shards: r.Shards, Disabled: []jsonTenantDisable{}, LostBy: []jsonTenantLost{}}
	if r.Shards > 1 {
		s := r.Shard
		t.Shard = &s
	}
	for _, d := range r.Disables {
		t.Disabled = append(t.Disabled, jsonTenantDisable{d.Tenant, d.At.Sub(r.Start).Seconds(), d.By, string(d.Cause)})
	}
	for _, l := range r.LostByTenant() {
		t.LostBy = append(t.LostBy, jsonTenantLost(l))
	}
	return t
}

// jsonGate is one --fail-on gate's result for the run.
type jsonGate struct {
	Gate   Gate       `json:"gate"`
	Status GateStatus `json:"status"`
	// Reason is why, as a code (see GateResult.Reason).
	Reason  GateReason `json:"reason,omitempty"`
	Message string     `json:"message"`
}

type jsonTTL struct {
	RecommendedSeconds           float64         `json:"recommended_seconds"`
	RecommendedWithManualSeconds float64         `json:"recommended_with_manual_seconds"`
	WindowSeconds                float64         `json:"window_seconds"`
	ObservedSeconds              float64         `json:"observed_seconds"`
	ManualRedeliverySeconds      float64         `json:"manual_redelivery_seconds"`
	ScheduleOffsetsSeconds       []float64       `json:"schedule_offsets_seconds"`
	Retries                      int             `json:"retries"`
	WorstCase                    string          `json:"worst_case"`
	Choices                      []jsonTTLChoice `json:"choices"`
	Advice                       []string        `json:"advice"`
}

type jsonTTLChoice struct {
	TTLSeconds float64 `json:"ttl_seconds"`
	// LeakedDuplicates is the arrivals of this run after their key expired.
	LeakedDuplicates int `json:"leaked_duplicates"`
	// LeakedEvents is the events of this run with such an arrival.
	LeakedEvents int `json:"leaked_events"`
	// WorstCaseArrivals is the retries of one event after its key expired,
	// in the worst case (see worst_case).
	WorstCaseArrivals int `json:"worst_case_arrivals"`
	// ManualRedeliveryLeaks says a manual redelivery can come after expiry.
	ManualRedeliveryLeaks bool `json:"manual_redelivery_leaks"`
}

type jsonEvent struct {
	ID       string        `json:"id"`
	Fate     string        `json:"fate"`
	Attempts []jsonAttempt `json:"attempts"`
	// Attacks are the attack requests sent beside the event's attempts.
	Attacks []jsonAttackRequest `json:"attacks,omitempty"`
}

// jsonAttackRequest is one attack request: its own dedup id, the attempt
// it went beside, and the handler's answer.
type jsonAttackRequest struct {
	Attack         string `json:"attack"`
	ID             string `json:"id"`
	N              int    `json:"n"`
	HandlerStatus  int    `json:"handler_status"`
	ReachedHandler bool   `json:"reached_handler"`
	Detail         string `json:"detail"`
}

type jsonAttempt struct {
	N              int               `json:"n"`
	AtSeconds      float64           `json:"at_seconds"`
	Outcome        simulator.Outcome `json:"outcome"`
	Status         int               `json:"status"`
	HandlerStatus  int               `json:"handler_status"`
	ReachedHandler bool              `json:"reached_handler"`
	LatencyMS      float64           `json:"latency_ms"`
	Fault          string            `json:"fault"`
	Copy           int               `json:"copy,omitempty"`
	Manual         bool              `json:"manual,omitempty"`
}

// WriteJSON writes the report as one JSON object (the JSON contract). It
// streams: each run's events are encoded one at a time as Timelines yields
// them, so a report of a million events never holds them all.
func WriteJSON(w io.Writer, rep *Report) error {
	bw := bufio.NewWriterSize(w, bufferSize)
	top, err := json.MarshalIndent(jsonReport{
		Runs: []jsonRun{}, RecommendedTTLSeconds: rep.RecommendedTTL().Seconds(),
		RecommendedTTLWithManualSeconds: rep.RecommendedWithManual().Seconds(), Chart: rep.Chart,
	}, "", "  ")
	if err != nil {
		return err
	}
	// Runs is the report's first field: its empty array is where the runs
	// go.
	const runsOpen = "{\n  \"runs\": ["
	if !bytes.HasPrefix(top, []byte(runsOpen+"]")) {
		return fmt.Errorf("report: JSON report does not begin with its runs: %.40q", top)
	}
	if len(rep.Runs) == 0 {
		bw.Write(top)
	} else {
		bw.WriteString(runsOpen)
		for i, r := range rep.Runs {
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			if err := writeJSONRun(bw, rep, r); err != nil {
				return err
			}
		}
		bw.WriteString("\n  ")
		bw.Write(top[len(runsOpen):])
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// writeJSONRun writes one run, indented as the second level of the report:
// everything but its events in one piece, then the events one by one.
func writeJSONRun(bw *bufio.Writer, rep *Report, r *Summary) error {
	head, err := json.MarshalIndent(jsonRunOf(rep, r), "    ", "  ")
	if err != nil {
		return err
	}
	// Events is a run's last field.
	const eventsEnd = "[]\n    }"
	if !bytes.HasSuffix(head, []byte(eventsEnd)) {
		return fmt.Errorf("report: JSON run does not end with its events: %.40q", head[max(0, len(head)-40):])
	}
	bw.Write(head[:len(head)-len(eventsEnd)])
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("        ", "  ")
	n := 0
	for ev, err := range r.Timelines() {
		if err != nil {
			return err
		}
		if n == 0 {
			bw.WriteByte('[')
		} else {
			bw.WriteByte(',')
		}
		n++
		bw.WriteString("\n        ")
		buf.Reset()
		if err := enc.Encode(jsonEventOf(ev)); err != nil {
			return err
		}
		// bufio keeps a write error: stop at the first one.
		if _, err := bw.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))); err != nil {
			return err
		}
	}
	if n == 0 {
		_, err = bw.WriteString(eventsEnd)
		return err
	}
	_, err = bw.WriteString("\n      ]\n    }")
	return err
}

// jsonRunOf is r in the JSON contract, with no events.
func jsonRunOf(rep *Report, r *Summary) jsonRun {
	t := r.TTL(rep.TTLs)
	j := r.Judge()
	jr := jsonRun{
		Provider: r.Provider, Policy: r.Policy, Scenario: r.Scenario, Seed: r.Seed, RunID: r.RunID, Target: r.Target, EventType: r.EventType,
		Reason: j.Reason, Missing: j.Missing, SettleSeconds: r.SettleWait.Seconds(),
		DefaultScenario: r.DefaultScenario,
		Interrupted:     r.Interrupted, Incomplete: r.Incomplete, Verdict: r.Verdict(), Detail: rep.words().verdictLine(r), Offenders: r.OffenderCounts(),
		HandlersRunning: r.HandlersRunning, EffectsUnsettled: r.EffectsUnsettled,
		EffectsPending: j.Pending, SettledOnQuietSeconds: j.Quiet.Seconds(), Caveat: j.Caveat,
		SignatureCheck: r.SignatureCheck(), SignatureDetail: rep.words().signatureLine(r),
		SignatureAccepted: append([]string{}, r.ForgedAccepted()...), SignatureAttacks: jsonAttacks(r),
		SignatureAdvice: r.ToleranceAdvice(),
		Latency:         jsonLatencyOf(r, rep.Timeouts),
		Summary: jsonSummary{
			Events: r.Events, Attempts: r.Attempts, Delivered: r.Delivered, LostEvents: r.Lost,
			HandlerArrivals: r.HandlerArrivals, DuplicateArrivals: r.DuplicateArrivals, RefusedArrivals: r.RefusedArrivals,
			MaxArrivalSpanSeconds: r.MaxArrivalSpan.Seconds(),
			LostToDisable:         r.LostToDisable, LostToDisableEvents: append([]string{}, r.LostToDisableIDs...),
			Restarts: len(r.Restarts), RestartsAtSeconds: []float64{}, ReorderedPairs: r.ReorderedPairs,
			Tenants: jsonTenantsOf(r),
		},
		TTL: jsonTTL{
			RecommendedSeconds: t.Recommended.Seconds(), RecommendedWithManualSeconds: t.WithManual.Seconds(),
			WindowSeconds: t.Window.Seconds(), ObservedSeconds: t.Observed.Seconds(),
			ManualRedeliverySeconds: t.Manual.Seconds(), ScheduleOffsetsSeconds: []float64{},
			Retries: t.Retries, WorstCase: worstCaseWords, Choices: []jsonTTLChoice{}, Advice: []string{},
		},
		EventsComplete: r.TimelineCount() >= r.Events,
		Events:         []jsonEvent{},
	}
	if h := r.Handshake; h != nil {
		jr.Handshake = &jsonHandshake{Name: h.Handshake, Passed: h.HandshakeProblem == "", Status: h.HandlerStatus, Expect: h.HandshakeExpect, Problem: h.HandshakeProblem}
	}
	for _, g := range GatesFor(rep.Gates, r) {
		jr.Gates = append(jr.Gates, jsonGate{Gate: g.Gate, Status: g.Status, Reason: g.Reason, Message: g.Message})
	}
	if d := r.DuplicateEffects(); d >= 0 {
		jr.Summary.DuplicateEffects = &d
	}
	if !r.DisabledAt.IsZero() {
		s := r.DisabledAt.Sub(r.Start).Seconds()
		jr.Summary.DisabledAtSeconds = &s
	}
	for _, d := range r.Restarts {
		jr.Summary.RestartsAtSeconds = append(jr.Summary.RestartsAtSeconds, d.Seconds())
	}
	if f := r.RestartFailed; f != nil {
		jr.RestartFailed = &jsonRestartFailed{AtSeconds: f.At.Seconds(), Error: f.Error}
	}
	for _, c := range t.Choices {
		jr.TTL.Choices = append(jr.TTL.Choices, jsonTTLChoice{
			TTLSeconds: c.TTL.Seconds(), LeakedDuplicates: c.LeakedArrivals, LeakedEvents: c.LeakedEvents,
			WorstCaseArrivals: c.WorstArrivals, ManualRedeliveryLeaks: c.ManualLeaks,
		})
	}
	for _, off := range r.Schedule {
		jr.TTL.ScheduleOffsetsSeconds = append(jr.TTL.ScheduleOffsetsSeconds, off.Seconds())
	}
	jr.TTL.Advice = append(jr.TTL.Advice, wrongAdviceLines(r, t)...)
	return jr
}

// jsonEventOf is one event in the JSON contract.
func jsonEventOf(ev *EventTimeline) jsonEvent {
	je := jsonEvent{ID: ev.ID, Fate: ev.Fate, Attempts: make([]jsonAttempt, 0, len(ev.Attempts))}
	for _, a := range ev.Attempts {
		je.Attempts = append(je.Attempts, jsonAttempt{
			N: a.Attempt, AtSeconds: a.At.Seconds(), Outcome: a.Outcome, Status: a.Status, HandlerStatus: a.HandlerStatus,
			ReachedHandler: a.Reached, LatencyMS: msf(a.Latency), Fault: a.Fault, Copy: a.Copy, Manual: a.Manual,
		})
	}
	for _, a := range ev.Attacks {
		name := a.Attack
		if a.AttackChange != "" {
			name += " (" + a.AttackChange + ")"
		}
		je.Attacks = append(je.Attacks, jsonAttackRequest{Attack: name, ID: a.EventID, N: a.Attempt, HandlerStatus: a.HandlerStatus, ReachedHandler: a.Reached, Detail: a.AttackDetail})
	}
	return je
}

func jsonAttacks(r *Summary) []jsonAttack {
	out := []jsonAttack{}
	for _, a := range r.Attacks() {
		ja := jsonAttack{Attack: a.Attack, Probe: a.Probe, NotApplicable: a.NotApplicable, Undetectable: a.Undetectable, Detail: a.Detail,
			Sent: a.Sent, Answered: a.Answered, Rejected: a.Rejected, Accepted: a.Accepted, Statuses: map[string]int{}, GotThrough: a.Failed()}
		for s, n := range a.Statuses {
			ja.Statuses[strconv.Itoa(s)] = n
		}
		if a.Effects >= 0 && a.NotApplicable == "" {
			e := a.Effects
			ja.SideEffects = &e
		}
		out = append(out, ja)
	}
	return out
}

func jsonLatencyOf(r *Summary, timeouts []Timeout) jsonLatency {
	l := jsonLatency{Measured: r.Measured(), Answers: r.Answers(), CutOff: r.HandlerTimeouts, Headroom: []jsonHeadroom{}}
	if !l.Measured {
		return l
	}
	if l.Answers > 0 {
		l.P50MS, l.P95MS, l.P99MS, l.MaxMS = msp(r.Percentile(50)), msp(r.Percentile(95)), msp(r.Percentile(99)), msp(r.Percentile(100))
	}
	for _, h := range r.Headroom(timeouts) {
		l.Headroom = append(l.Headroom, jsonHeadroom{Policy: h.Policy, InUse: h.InUse, TimeoutSeconds: h.Timeout.Seconds(),
			HeadroomMS: msf(h.Spare), Over: h.Over, Unmeasured: h.Unmeasured, Verdict: h.Verdict})
	}
	return l
}

// msp is msf of d, for a figure that may be null.
func msp(d time.Duration) *float64 {
	f := msf(d)
	return &f
}

// msf is a duration in milliseconds, to the microsecond.
func msf(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
