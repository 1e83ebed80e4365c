// Package report turns a stream of simulator records into what people read:
// summaries, verdicts, the dedup-TTL analysis, and the writers for every
// format. It only consumes records; it never runs the engine, so a saved
// results stream renders exactly as the run that made it.
package report

import (
	"fmt"
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
// target), built from its records.
type Summary struct {
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
	// disableRuleWords are the rule in the run record's words, for
	// streams that do not say what disabled the endpoint (upgrade).
	disableRuleWords string
	// EventType is the type of the events the run delivered ("" in
	// streams that do not say).
	EventType string
	// Schedule is when each attempt happens, from the first, when every
	// earlier one failed (empty for streams that do not carry it).
	Schedule []time.Duration
	// Start is the virtual time the run started at.
	Start time.Time
	// WallStart is the real time the run started at; zero for streams
	// that do not carry it.
	WallStart time.Time
	// Planned is the number of events the run was to deliver; 0 for a
	// run of real deliveries taken as they came (retrysim proxy).
	Planned int

	Events        int // events whose fate is known
	Attempts      int
	Delivered     int // events delivered
	Lost          int // events never delivered (exhausted, disabled, stopped, dropped)
	LostToDisable int
	// LostToProvider counts the events the provider never sent, in its own
	// outage, and did not replay (simulator.FateDropped).
	LostToProvider    int
	InterruptedEvents int
	HandlerArrivals   int
	// DuplicateArrivals counts the arrivals of an event at the handler
	// after one it did not turn away: one it answered 2xx, or one that may
	// have done the work before failing (5xx, no answer in time, the answer
	// lost). An arrival answered 4xx before any such one is refused, not a
	// duplicate: the handler did not take the event in.
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
	// InjectedLateArrivals counts duplicate arrivals after an answer that
	// timed out only because the scenario added latency to it: not the
	// handler's doing, so not among Causes.
	InjectedLateArrivals int
	// LostNotRetried counts lost events the provider gave up on before the
	// end of its schedule, because its rules do not retry that failure
	// (Twilio's rp, a stop signal).
	LostNotRetried int
	// HandlerRedirects counts attempts answered with a 3xx the provider did
	// not follow, by the handler or by the endpoint's old address.
	HandlerRedirects int
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
	// DedupDeliveryField names the id each subscription's delivery has of
	// its own, where the provider gives one: the key that lets fan-out
	// through ("" in streams that do not say).
	DedupDeliveryField string
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
	// ReplayArrivals counts duplicate arrivals that were replays no
	// signature can tell from a retry (the scheme signs no timestamp a
	// handler can bound), of a request the handler had accepted: a test of
	// its dedup like any retry.
	ReplayArrivals int
	// LostToDisableIDs lists the first MaxListedEvents events lost because
	// the endpoint was disabled, by sequence.
	LostToDisableIDs []string
	// Restarts are the moments the handler was restarted, since the start.
	Restarts []time.Duration
	// ReorderedPairs counts pairs of events about the same object whose
	// first arrivals at the handler came in the opposite order to the one
	// the events were created in.
	ReorderedPairs int
	DisabledAt     time.Time
	Interrupted    bool
	// Incomplete says the records stop before the run's end record: a
	// results stream cut off (head, a full disk, a crash). What the
	// report shows covers only the records there were.
	Incomplete   bool
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
	// DefaultScenario says nobody chose Scenario: it was the command's
	// default.
	DefaultScenario bool
	// DryRun says the run only modelled the handler (see Modelled).
	DryRun bool
	// Effects is how often the handler processed each event during the
	// run (oracle); effectsBefore how often before it, for the events
	// processed before (a run that repeats an earlier run's ids).
	Effects       map[string]int
	effectsBefore map[string]int
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
	// DisabledBy says what disabled the endpoint, in the engine's words
	// ("" in streams that do not say); DisabledCause which kind of thing
	// it was.
	DisabledBy    string
	DisabledCause simulator.DisableCause
	// Probe is the provider's own invalid-signature probe, when it sent one.
	Probe *simulator.Record
	// AdvisedTolerance is the bound on a signed timestamp's age that is
	// good practice where the provider documents none (0 elsewhere).
	AdvisedTolerance time.Duration
	// Handshake is the provider's handshake when the endpoint was set up,
	// when it sent one.
	Handshake *simulator.Record
	// The run's tenants (tenants.go).
	tenantFacts

	// Outages are the spans of virtual time in which attempts met an
	// injected outage, inferred from the attempts' faults: from the first
	// such attempt to the last one before an attempt got through.
	Outages []Span
	// OutageWindows are the scenario's outage windows, whole, as the run
	// record states them (none in streams that do not).
	OutageWindows []Span
	// Pauses are the spans in which the provider had disabled the
	// endpoint for a while (a disable rule's backoff: GitLab), from the
	// end record; LostToPause counts the events due in them, never sent.
	Pauses      []Span
	LostToPause int
	// End is the virtual time of the run's last record.
	End time.Time

	// latencies are the handler's real response times.
	latencies sample
	afterKey  sample // every arrival after its event's key, as offset from the key
	eventNeed sample // per ended event with such arrivals, the latest one
	// live holds the events in flight that need following: those that
	// reached the handler, and those whose timeline is kept. An event
	// that never reached it needs nothing, so a run against a black hole
	// keeps nothing per event.
	live map[int]*eventAgg
	// reorder counts the pairs of events about one object that first
	// arrived out of order.
	reorder  reorders
	lostSeqs []int // the sequence numbers behind LostToDisableIDs
	// The signature attacks: each kind met, each request sent, and the
	// requests' own dedup ids.
	attackKinds []*attackKind
	attacksSent []attackSent
	attackIDs   map[string]bool
	// retryLike marks the attack ids of replays no signature can tell
	// from a retry: their second side effect is a duplicate effect.
	retryLike map[string]bool
	ended     bool
	begun     bool // its run record was read
	inOutage  bool

	// The per-event timeline (see Timelines): kept holds the timelines in
	// memory when there is no spool; with one, every attempt goes to it as
	// it comes, and closed indexes the events whose fate closed their
	// chain (those in flight are found from their live entry).
	kept   []*EventTimeline
	spool  *spool
	closed []spoolEntry
	// closedSorted says closed is in Seq order.
	closedSorted bool
	// open counts the timelines begun and not in closed; dropped those
	// in kept that are not kept after all.
	open, dropped int
	// held counts the records held in memory for the timeline; peakHeld
	// is its highest.
	held, peakHeld int
	// keyed holds a hash of each event the handler answered 2xx, for
	// matching the oracle's ids; sampleDelivered is the first one's id.
	keyed           []uint64
	sampleDelivered string
	// tally counts the events by kind of fate and keeps candidates for a
	// sample of them (see Sample).
	tally fateTally
}

// Span is a stretch of virtual time.
type Span struct{ From, To time.Time }

// EventTimeline is one event's attempts, for the per-event timeline.
type EventTimeline struct {
	ID       string
	Seq      int
	Attempts []simulator.Record
	Fate     string
	// Attacks are the attack requests sent beside the event's attempts.
	Attacks []simulator.Record
	// dropped marks a timeline held in case it was needed, and not kept.
	dropped bool
}

// MaxListedEvents is how many event ids a report lists for one finding.
const MaxListedEvents = 100

// firstArrival is when an event first reached the handler (Unix
// nanoseconds of virtual time): 16 bytes for each event that reached it.
type firstArrival struct {
	seq int
	at  int64
}

// eventAgg is what the aggregator follows of one event in flight; small,
// as a run may have a million of them.
type eventAgg struct {
	firstArrival, key int64         // virtual times, Unix nanoseconds
	need              time.Duration // latest arrival after the key
	arrivals          int32
	hasKey            bool
	lastReached       simulator.Outcome
	lastLateInjected  bool           // the last arrival timed out only because a fault added latency
	prevReached       bool           // the event's last attempt reached the handler
	arrived           EventArrivals  // which arrivals were duplicates
	duplicated        bool           // a duplicate arrival came
	refused           bool           // an arrival was turned away with a 4xx before one was taken in
	pooled            bool           // its timeline is held only until its fate says whether to keep it
	timeline          *EventTimeline // the timeline kept in memory, if any
	spooled           *spoolTail     // where the spooled timeline is, if any
}

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
	if !r.EffectsKnown || r.Effects[id] == 0 || (r.attackIDs[id] && !r.retryLike[id]) {
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

// Aggregator builds each run's Summary from a record stream. Add records in
// stream order, then call Runs. Its memory follows the events in flight and
// the kept timelines, not the length of the stream.
type Aggregator struct {
	opts  options
	runs  []*Summary
	index map[runID]*Summary
	last  *Summary // the run of the last record, the likely run of the next
	// spool holds every run's finished timelines when all are kept.
	spool *spool
	// spare holds a lent record's upgraded copy (see upgraded).
	spare simulator.Record
}

// runID tells the runs of a mixed stream apart.
type runID struct {
	policy, scenario string
	seed             uint64
}

// Option configures an Aggregator.
type Option func(*options)

type options struct {
	timeline int             // events whose attempts are kept; -1 for all
	ttls     []time.Duration // TTL choices whose leaks are counted exactly
	spoolDir string          // where the timeline spool goes; "" for os.TempDir
	inMemory bool            // keep every timeline in memory, never spool
}

// WithTimeline keeps the attempts of the first n events (by sequence) for
// the per-event timeline; n < 0 keeps all of them. Keeping all, the
// Aggregator writes each event's timeline to a temporary file once the
// event's fate is known, so its memory still follows the events in flight;
// call Close when the report is written.
func WithTimeline(n int) Option { return func(o *options) { o.timeline = n } }

// WithSpoolDir makes the temporary file that holds the per-event timelines
// (with WithTimeline(-1)) in dir rather than os.TempDir.
func WithSpoolDir(dir string) Option { return func(o *options) { o.spoolDir = dir } }

// inMemory keeps every timeline in memory: for a stream that is in memory
// already (Summarize), where a spool would only add a file to clean up.
func inMemory() Option { return func(o *options) { o.inMemory = true } }

// WithTTLs names TTL choices the report will compare besides DefaultTTLs.
// Leaks are counted exactly for those and the defaults; for other TTLs,
// in runs with more than 65,536 arrivals after a key, they are counted from
// buckets 0.1% wide, and may miss the arrivals within 0.1% of the TTL.
func WithTTLs(ttls []time.Duration) Option {
	return func(o *options) { o.ttls = append(o.ttls, ttls...) }
}

// NewAggregator returns an empty Aggregator. By default it keeps the first
// 10 events' timelines.
func NewAggregator(opts ...Option) *Aggregator {
	a := &Aggregator{opts: options{timeline: 10}, index: map[runID]*Summary{}}
	for _, o := range opts {
		o(&a.opts)
	}
	if a.opts.timeline < 0 && !a.opts.inMemory {
		a.spool = &spool{dir: a.opts.spoolDir}
	}
	return a
}

// Close removes the temporary file the per-event timelines were spooled to.
// Timelines read after it fail with ErrClosed; the summary figures stay.
// Close may be called more than once; an Aggregator that spooled nothing
// has nothing to close.
func (a *Aggregator) Close() error {
	if a.spool == nil {
		return nil
	}
	return a.spool.close()
}

// marks are the TTLs whose leaks are counted exactly.
func (o *options) marks() []time.Duration {
	m := slices.Concat(DefaultTTLs(), o.ttls)
	for _, c := range commonAdvice {
		m = append(m, c.ttl)
	}
	return m
}

// Add folds one record into its run.
func (a *Aggregator) Add(rec *simulator.Record) error {
	run := a.last
	if run == nil || run.Policy != rec.Policy || run.Scenario != rec.Scenario || run.Seed != rec.Seed || rec.Kind == simulator.KindRun {
		run = a.index[runID{rec.Policy, rec.Scenario, rec.Seed}]
	}
	if run == nil {
		if rec.Kind != simulator.KindRun {
			return fmt.Errorf("record of kind %q for policy %q comes before its run record", rec.Kind, rec.Policy)
		}
		marks := a.opts.marks()
		run = &Summary{
			Outcomes: map[simulator.Outcome]int{}, Causes: map[simulator.Outcome]int{}, Unreached: map[simulator.Outcome]int{}, HandlerStatuses: map[int]int{}, live: map[int]*eventAgg{},
			reorder: newReorders(), spool: a.spool, closedSorted: true,
			latencies: newSample([]time.Duration{rec.Timeout}), afterKey: newSample(marks), eventNeed: newSample(marks),
		}
		a.index[runID{rec.Policy, rec.Scenario, rec.Seed}] = run
		a.runs = append(a.runs, run)
	}
	a.last = run
	rec = upgraded(rec, run, &a.spare)
	switch rec.Kind {
	case simulator.KindRun:
		if run.begun {
			return fmt.Errorf("a second run record for %s · %s · seed %d: the stream holds this run twice (two streams joined?)", rec.Policy, rec.Scenario, rec.Seed)
		}
		run.begin(rec)
	case simulator.KindAttempt:
		return run.attempt(rec, a.opts.timeline)
	case simulator.KindEvent:
		return run.fate(rec, a.opts.timeline)
	case simulator.KindEffects:
		if run.Effects == nil {
			run.Effects = map[string]int{}
		}
		run.Effects[rec.Event] = rec.Effects
		if rec.EffectsBefore > 0 {
			if run.effectsBefore == nil {
				run.effectsBefore = map[string]int{}
			}
			run.effectsBefore[rec.Event] = rec.EffectsBefore
		}
	case simulator.KindEnd:
		run.end(rec)
	case simulator.KindRestart:
		run.Restarts = append(run.Restarts, rec.Time.Sub(run.Start))
	case simulator.KindAttack:
		return run.addAttack(rec)
	case simulator.KindHandshake:
		run.addHandshake(rec)
	case simulator.KindDisable:
		run.addDisable(rec)
	}
	return nil
}

// Runs returns the runs seen so far, in the order they began.
func (a *Aggregator) Runs() []*Summary {
	for _, r := range a.runs {
		r.Incomplete = !r.ended
		r.compact()
		r.ReorderedPairs = r.reordered()
	}
	return a.runs
}

func (r *Summary) begin(rec *simulator.Record) {
	r.begun = true
	r.Provider, r.Policy, r.Scenario, r.Seed, r.RunID = rec.Provider, rec.Policy, rec.Scenario, rec.Seed, rec.RunID
	r.Target, r.PolicySummary, r.DedupField = rec.Target, rec.Summary, rec.DedupField
	r.DedupDeliveryField = rec.DedupDeliveryField
	r.EventType = rec.EventType
	r.Tenants, r.Shard, r.Shards = rec.Tenants, rec.Shard, rec.Shards
	r.OutageWindows = nil
	if rec.Start != nil {
		for _, w := range rec.Outages {
			r.OutageWindows = append(r.OutageWindows, Span{From: rec.Start.Add(w[0]), To: rec.Start.Add(w[1])})
		}
	}
	r.DefaultScenario, r.DryRun = rec.DefaultScenario, rec.DryRun
	r.MaxAttempts, r.Planned = rec.MaxAttempt, rec.Events
	r.Window = rec.Window
	r.AdvisedTolerance = rec.AdvisedTolerance
	r.Timeout = rec.Timeout
	r.ManualRedelivery = rec.ManualRedelivery
	r.DisableAfter, r.DisableWithin = rec.DisableN, rec.DisableWithin
	r.disableRuleWords = rec.DisableRule
	r.DisableRule = policies.DisableRule{
		ConsecutiveFailures: rec.DisableN, Within: policies.Duration(rec.DisableWithin),
		FailureRate: rec.DisableRate, MinAttempts: rec.DisableMinAttempts, FailingFor: policies.Duration(rec.DisableFailingFor),
	}
	r.Schedule = slices.Clone(rec.Schedule)
	if r.Schedule == nil {
		r.Schedule = []time.Duration{}
	}
	if rec.Start != nil {
		r.Start = *rec.Start
	}
	if rec.WallStart != nil {
		r.WallStart = *rec.WallStart
	}
}

func (r *Summary) attempt(rec *simulator.Record, keep int) error {
	r.reorder.seen(rec.Seq)
	ev := r.live[rec.Seq]
	if ev == nil && (rec.Reached || keep < 0 || rec.Seq < keep || r.poolFree(rec, keep)) {
		ev = &eventAgg{}
		r.live[rec.Seq] = ev
		switch {
		case keep < 0 || rec.Seq < keep:
			r.hold(ev, rec)
		case r.poolFree(rec, keep):
			r.pool(ev, rec)
		}
	}
	if ev != nil {
		if err := r.keepRecord(ev, rec, chunkAttempt); err != nil {
			return err
		}
	}
	r.Attempts++
	r.Outcomes[rec.Outcome]++
	r.Subscriptions = max(r.Subscriptions, rec.Subscription+1)
	if rec.Attempt > 1 && rec.Copy == 0 && rec.Subscription == 0 && !rec.Manual && (ev == nil || !ev.prevReached) {
		r.ResentUnreached++
	}
	if !rec.Reached {
		r.Unreached[rec.Outcome]++
	}
	if ev != nil {
		ev.prevReached = rec.Reached
	}
	if rec.Outcome == simulator.ConnectionFailed && !rec.Reached && rec.Fault == "" {
		r.Unreachable++
	}
	if rec.TLS != "" {
		if r.TLSFailures++; r.TLSProblem == "" {
			r.TLSProblem = rec.TLS
		}
	}
	if rec.Outcome == simulator.InvalidResponse && r.InvalidAnswer == "" {
		r.InvalidAnswer = rec.Error
	}
	r.End = rec.Time
	r.outage(rec)
	if rec.Outcome == simulator.Redirect || (rec.HandlerStatus >= 300 && rec.HandlerStatus < 400) {
		r.HandlerRedirects++
	}
	if rec.Outcome == simulator.Timeout && rec.Reached && rec.HandlerStatus == 0 {
		r.HandlerTimeouts++
	}
	if !rec.Reached {
		return nil
	}
	r.HandlerArrivals++
	if rec.HandlerStatus != 0 {
		r.latencies.add(rec.Latency)
		r.HandlerTime += rec.Latency
		r.HandlerStatuses[rec.HandlerStatus]++
	}
	at := rec.Time.UnixNano()
	if ev.arrivals == 0 {
		ev.firstArrival = at
		r.reorder.arrive(rec.Seq, rec.Object, at)
	} else {
		r.MaxArrivalSpan = max(r.MaxArrivalSpan, time.Duration(at-ev.firstArrival))
	}
	switch ev.arrived.Arrive(rec.HandlerStatus) {
	case ArrivalRefused:
		r.RefusedArrivals++
		ev.refused = true
	case ArrivalDuplicate:
		r.duplicate(ev, rec)
	}
	ev.arrivals++
	ev.lastReached = rec.Outcome
	ev.lastLateInjected = rec.Outcome == simulator.Timeout && rec.AddedLatency > 0
	if ev.hasKey {
		after := time.Duration(at - ev.key)
		r.afterKey.add(after)
		r.ObservedNeed = max(r.ObservedNeed, after)
		ev.need = max(ev.need, after)
	} else if policies.Is2xx(rec.HandlerStatus) {
		ev.key, ev.hasKey = at, true
		r.noteKeyed(rec.Event)
	}
	return nil
}

// duplicate counts an arrival of an event the handler had taken in, by
// why the provider sent it again.
func (r *Summary) duplicate(ev *eventAgg, rec *simulator.Record) {
	r.DuplicateArrivals++
	if !ev.duplicated {
		ev.duplicated = true
		r.DuplicateEvents++
	}
	switch {
	case rec.Copy > 0:
		r.CopyArrivals++
	case rec.Subscription > 0:
		r.FanOutArrivals++
	case rec.Manual:
		r.ManualArrivals++
	case ev.lastLateInjected:
		r.InjectedLateArrivals++
	default:
		r.Causes[ev.lastReached]++
	}
}

func (r *Summary) fate(rec *simulator.Record, keep int) error {
	r.reorder.resolve(rec.Seq)
	r.Events++
	if rec.Fate != simulator.FateDelivered && rec.Fate != simulator.FateInterrupted {
		r.noteTenantLost(rec)
	}
	switch rec.Fate {
	case simulator.FateDelivered:
		r.Delivered++
	case simulator.FateInterrupted:
		r.InterruptedEvents++
	case simulator.FateDisabled:
		r.Lost++
		r.LostToDisable++
		r.noteLostToDisable(rec)
	case simulator.FateStopped:
		r.Lost++
		r.LostNotRetried++
	case simulator.FateDropped:
		r.Lost++
		r.LostToProvider++
	case simulator.FatePaused:
		r.Lost++
		r.LostToPause++
	case simulator.FateExhausted:
		r.Lost++
		if rec.Attempts < r.MaxAttempts {
			// The provider's rules did not retry this failure.
			r.LostNotRetried++
		}
	default:
		r.Lost++
	}
	ev := r.live[rec.Seq]
	if ev != nil {
		if ev.need > 0 {
			r.eventNeed.add(ev.need)
		}
		delete(r.live, rec.Seq)
	}
	return r.settle(ev, rec, keep)
}

// outage extends or closes the current outage span. Records come in
// virtual-time order, so an attempt that met no outage ends the span.
func (r *Summary) outage(rec *simulator.Record) {
	in := rec.Outage
	n := len(r.Outages)
	switch {
	case in && n > 0 && r.inOutage:
		r.Outages[n-1].To = rec.Time
	case in:
		r.Outages = append(r.Outages, Span{From: rec.Time, To: rec.Time})
		r.inOutage = true
	default:
		r.inOutage = false
	}
}

func (r *Summary) end(rec *simulator.Record) {
	r.ended = true
	r.Interrupted = rec.Interrupted
	if rec.DisabledAt != nil {
		r.DisabledAt = *rec.DisabledAt
		r.DisabledBy, r.DisabledCause = rec.DisabledBy, rec.DisabledCause
	}
	if rec.Time.After(r.End) {
		r.End = rec.Time
	}
	r.Pauses = nil
	if r.Start != (time.Time{}) {
		for _, w := range rec.Pauses {
			r.Pauses = append(r.Pauses, Span{From: r.Start.Add(w[0]), To: r.Start.Add(w[1])})
		}
	}
	r.EffectsKnown = rec.EffectsKnown
	if r.EffectsKnown && r.Effects == nil {
		r.Effects = map[string]int{}
	}
	r.EffectsProblem = rec.EffectsProblem
	r.HandlersRunning, r.EffectsUnsettled = rec.HandlersRunning, rec.EffectsUnsettled
	r.SettleWait, r.SettleLimit = rec.SettleWait, rec.SettleLimit
	r.EffectsPending, r.SettledOnQuiet = rec.EffectsPending, rec.SettledOnQuiet
	r.matchEffects()
}

// Percentile returns the p-th percentile (0..100) of the handler's response
// times, nearest rank; 0 when there are none.
func (r *Summary) Percentile(p float64) time.Duration { return r.latencies.percentile(p) }

// noteLostToDisable keeps the lowest MaxListedEvents sequence numbers of the
// events lost to the endpoint being disabled.
func (r *Summary) noteLostToDisable(rec *simulator.Record) {
	i, _ := slices.BinarySearch(r.lostSeqs, rec.Seq)
	if i >= MaxListedEvents {
		return
	}
	r.lostSeqs = slices.Insert(r.lostSeqs, i, rec.Seq)
	r.LostToDisableIDs = slices.Insert(r.LostToDisableIDs, i, rec.Event)
	if len(r.lostSeqs) > MaxListedEvents {
		r.lostSeqs = r.lostSeqs[:MaxListedEvents]
		r.LostToDisableIDs = r.LostToDisableIDs[:MaxListedEvents]
	}
}

// reordered counts the pairs of events about one object that first reached
// the handler in the opposite order to their creation (sequence order).
func (r *Summary) reordered() int { return r.reorder.pairs }

// Summarize folds a whole record stream, as simulator.Collect gathers it,
// into its runs (one per policy, scenario and seed, in the order they
// began): what a Go test asserts on. The stream being in memory already,
// every timeline kept stays there too (nothing to Close).
//
//	runs, err := report.Summarize(records)
//	if runs[0].Verdict() != report.Idempotent { t.Error(runs[0].VerdictLine()) }
func Summarize(records []simulator.Record, opts ...Option) ([]*Summary, error) {
	a := NewAggregator(append(opts, inMemory())...)
	for i := range records {
		if err := a.Add(&records[i]); err != nil {
			return nil, err
		}
	}
	return a.Runs(), nil
}
