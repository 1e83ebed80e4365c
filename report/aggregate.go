package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// Aggregator builds each run's Summary from a record stream. Add records in
// stream order, then call Runs. Its memory follows the events in flight and
// the kept timelines, not the length of the stream.
type Aggregator struct {
	opts  options
	runs  []*runAgg
	index map[runID]*runAgg
	last  *runAgg // the run of the last record, the likely run of the next
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
	a := &Aggregator{opts: options{timeline: 10}, index: map[runID]*runAgg{}}
	for _, o := range opts {
		o(&a.opts)
	}
	if a.opts.timeline < 0 && !a.opts.inMemory {
		a.spool = &spool{dir: a.opts.spoolDir}
	}
	return a
}

// Close removes the temporary files the per-event timelines and the
// reorder count's arrivals were spooled to. Timelines read after it fail
// with ErrClosed; the summary figures of runs concluded before it stay.
// Close may be called more than once; an Aggregator that spooled nothing
// has nothing to close.
func (a *Aggregator) Close() error {
	for _, r := range a.runs {
		r.reorder.close()
	}
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
		run = &runAgg{live: newSeqTable[*eventAgg](), reorder: newReorders(a.opts.spoolDir, a.opts.inMemory), spool: a.spool, outcomeIdx: newOutcomeIndex()}
		run.latencies, run.afterKey, run.eventNeed = newSample([]time.Duration{rec.Timeout}), newSample(marks), newSample(marks)
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
		run.Effects[rec.EventID] = rec.Effects
		if rec.EffectsBefore > 0 {
			if run.effectsBefore == nil {
				run.effectsBefore = map[string]int{}
			}
			run.effectsBefore[rec.EventID] = rec.EffectsBefore
		}
	case simulator.KindEnd:
		run.end(rec)
	case simulator.KindRestart:
		if rec.Error != "" {
			run.RestartFailed = &FailedRestart{At: rec.Time.Sub(run.Start), Error: rec.Error}
			break
		}
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

// Runs returns the runs seen so far, in the order they began: each the
// facts its records establish, as of now. Records added later do not
// change them; call Runs again for the facts with those.
func (a *Aggregator) Runs() []*Summary {
	out := make([]*Summary, len(a.runs))
	for i, r := range a.runs {
		out[i] = r.conclude()
	}
	return out
}

// runAgg is one run being aggregated: the facts so far, and the private
// state that follows the events in flight and the kept timelines. Only
// the Aggregator sees it; conclude hands out its facts.
type runAgg struct {
	// Summary holds the facts so far; conclude copies them out.
	Summary
	// live holds the events in flight that need following: those that
	// reached the handler, and those whose timeline is kept. An event
	// that never reached it needs nothing, so a run against a black hole
	// keeps nothing per event.
	live seqTable[*eventAgg]
	// reorder counts the pairs of events about one object that first
	// arrived out of order.
	reorder  reorders
	lostSeqs []int // the sequence numbers behind LostToDisableIDs
	ended    bool
	begun    bool // its run record was read
	inOutage bool
	// disableRuleWords are the disable rule in the run record's words,
	// for streams that do not say what disabled the endpoint (upgraded).
	disableRuleWords string
	// lastFaults is the last attempt's faults, and lastOutage whether
	// they include an outage (outageFault).
	lastFaults string
	lastOutage bool

	// The per-event timeline (see Timelines): kept holds the timelines in
	// memory when there is no spool; with one, every attempt goes to it as
	// it comes, and closed indexes the events whose fate closed their
	// chain (those in flight are found from their live entry).
	kept   []*EventTimeline
	spool  *spool
	closed closedIndex
	// open counts the timelines begun and not in closed; dropped those
	// in kept that are not kept after all.
	open, dropped int
	// held counts the records held in memory for the timeline; peakHeld
	// is its highest.
	held, peakHeld int
	// keyed holds a hash of each event the handler answered 2xx, for
	// matching the oracle's ids.
	keyed []uint64
	// The counts behind Outcomes, Unreached, Causes, their injected
	// parts and HandlerStatuses, which conclude builds from them.
	outcomeIdx                  outcomeIndex
	outcomes, unreached, causes outcomeCounts
	injectedUnreached           outcomeCounts
	injectedCauses              outcomeCounts
	statuses                    statusCounts
	// types counts a run of real deliveries' events by type (EventTypes);
	// typesUnknown says its stream does not give them (upgraded).
	types        typeCounts
	typesUnknown bool
}

// conclude returns the run's facts as of now: a copy that nothing the
// aggregation does later changes, with what its methods read frozen.
func (r *runAgg) conclude() *Summary {
	s := r.Summary
	s.Incomplete = !r.ended
	if pairs, err := r.reorder.count(); err == nil {
		s.ReorderedPairs = pairs
		if r.ended {
			r.reorder.shed()
		}
	} else {
		s.ReorderedPairs = ReorderedUncounted
	}
	s.Schedule, s.LostToDisableIDs = slices.Clone(s.Schedule), slices.Clone(s.LostToDisableIDs)
	s.HandlerStatuses, s.Outcomes = r.statuses.facts(), r.outcomes.facts(r.outcomeIdx)
	s.Causes, s.Unreached = r.causes.facts(r.outcomeIdx), r.unreached.facts(r.outcomeIdx)
	s.InjectedCauses, s.InjectedUnreached = r.injectedCauses.facts(r.outcomeIdx), r.injectedUnreached.facts(r.outcomeIdx)
	s.Effects, s.effectsBefore = maps.Clone(s.Effects), maps.Clone(s.effectsBefore)
	s.Outages, s.OutageWindows, s.Pauses, s.Restarts = slices.Clone(s.Outages), slices.Clone(s.OutageWindows), slices.Clone(s.Pauses), slices.Clone(s.Restarts)
	s.Disables, s.lostBy = slices.Clone(s.Disables), maps.Clone(s.lostBy)
	s.latencies, s.afterKey, s.eventNeed = r.latencies.frozen(), r.afterKey.frozen(), r.eventNeed.frozen()
	s.openNeed = nil
	for _, ev := range r.live.all() {
		if ev.need > 0 {
			s.openNeed = append(s.openNeed, ev.need)
		}
	}
	if s.Planned == 0 && !r.typesUnknown {
		s.EventTypes = r.types.facts()
		s.EventType = namedTypes(s.EventTypes)
	}
	s.tally = r.tally.clone()
	s.attacks = r.attacks.clone()
	s.stored = r.timelineView()
	return &s
}

func (r *runAgg) begin(rec *simulator.Record) {
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

func (r *runAgg) attempt(rec *simulator.Record, keep int) error {
	ev := r.live.get(rec.Attempt, rec.Seq)
	if ev == nil && (rec.Reached || keep < 0 || rec.Seq < keep || r.poolFree(rec, keep)) {
		ev = &eventAgg{}
		r.live.put(rec.Attempt, rec.Seq, ev)
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
	outcome := r.outcomeIdx.of(rec.Outcome)
	r.outcomes.addAt(outcome, rec.Outcome)
	r.Subscriptions = max(r.Subscriptions, rec.Subscription+1)
	if rec.Attempt > 1 && rec.Copy == 0 && rec.Subscription == 0 && !rec.Manual && (ev == nil || !ev.prevReached) {
		r.ResentUnreached++
	}
	if !rec.Reached {
		r.unreached.addAt(outcome, rec.Outcome)
		if injectedFailure(rec) {
			r.injectedUnreached.addAt(outcome, rec.Outcome)
		}
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
	if rec.RedirectRefused != "" {
		if r.RedirectsRefused++; r.RedirectRefusedTo == "" {
			r.RedirectRefusedTo = rec.RedirectRefused
		}
	} else if rec.Outcome == simulator.Redirect {
		// The provider got a redirect it did not follow. A 3xx it never
		// got (the answer lost, or too late) failed for that, not this.
		r.HandlerRedirects++
	}
	if rec.RedirectUnreached != "" {
		if r.RedirectsUnreached++; r.RedirectUnreachedTo == "" {
			r.RedirectUnreachedTo = rec.RedirectUnreached
		}
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
		r.statuses.add(rec.HandlerStatus)
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
	ev.subs |= subscriptionBit(rec.Subscription)
	ev.arrivals++
	if ev.subs&^1 == 0 || rec.Outcome.Failed() {
		// Under fan-out, only a subscription whose delivery failed is
		// retried: its retry's cause is the last failed arrival (the
		// event's, not that subscription's: per event, one is kept).
		ev.lastReached = rec.Outcome
		ev.lastLateInjected = rec.Outcome == simulator.Timeout && rec.AddedLatency > 0
		ev.lastRedirRefused = rec.RedirectRefused != ""
		ev.lastRedirUnreached = rec.RedirectUnreached != ""
		ev.lastInjected = injectedFailure(rec)
	}
	if ev.hasKey {
		after := time.Duration(at - ev.key)
		r.afterKey.add(after)
		r.ObservedNeed = max(r.ObservedNeed, after)
		ev.need = max(ev.need, after)
	} else if storesKey(rec) {
		ev.key, ev.hasKey = at, true
		r.noteKeyed(rec.EventID)
	}
	return nil
}

// duplicate counts an arrival of an event the handler had taken in, by
// why the provider sent it again.
func (r *runAgg) duplicate(ev *eventAgg, rec *simulator.Record) {
	r.DuplicateArrivals++
	if !ev.duplicated {
		ev.duplicated = true
		r.DuplicateEvents++
	}
	switch {
	case rec.Copy > 0:
		r.CopyArrivals++
	case ev.subs&subscriptionBit(rec.Subscription) == 0:
		// The event's first arrival through this subscription: another
		// subscription's delivery, where a later one is its own retry.
		r.FanOutArrivals++
	case rec.Manual:
		r.ManualArrivals++
	case ev.lastLateInjected:
		r.InjectedLateArrivals++
	case ev.lastRedirRefused:
		r.RefusedRedirectArrivals++
	case ev.lastRedirUnreached:
		r.UnreachedRedirectArrivals++
	default:
		r.causes.add(r.outcomeIdx, ev.lastReached)
		if ev.lastInjected {
			r.injectedCauses.add(r.outcomeIdx, ev.lastReached)
		}
	}
}

// subscriptionBit is a subscription as a bit of eventAgg.subs (a stream
// naming more subscriptions than a run can have wraps around).
func subscriptionBit(sub int) uint16 { return 1 << (uint(sub) % 16) }

func (r *runAgg) fate(rec *simulator.Record, keep int) error {
	r.Events++
	if r.Planned == 0 {
		if r.types == nil {
			r.types = typeCounts{}
		}
		if _, ok := r.types[rec.Type]; !ok {
			r.types[strings.Clone(rec.Type)] = 0 // not the lent record's string
		}
		r.types[rec.Type]++
	}
	if neverDelivered(rec.Fate) {
		r.Lost++
		r.noteTenantLost(rec)
	}
	switch rec.Fate {
	case simulator.FateDelivered:
		r.Delivered++
	case simulator.FateInterrupted:
		r.InterruptedEvents++
	case simulator.FateDisabled:
		r.LostToDisable++
		r.noteLostToDisable(rec)
	case simulator.FateStopped:
		r.LostNotRetried++
	case simulator.FateDropped:
		r.LostToProvider++
	case simulator.FatePaused:
		r.LostToPause++
	case simulator.FateExhausted:
		if rec.Attempts < r.MaxAttempts {
			// The provider's rules did not retry this failure.
			r.LostNotRetried++
		}
	}
	ev := r.live.get(rec.Attempts, rec.Seq)
	if ev != nil {
		if ev.need > 0 {
			r.eventNeed.add(ev.need)
		}
		r.live.delete(rec.Attempts, rec.Seq)
	}
	return r.closeEvent(ev, rec, keep)
}

// neverDelivered says whether an event's fate is that it was never
// delivered: the provider gave up on it (exhausted, disabled, stopped,
// dropped, paused), as every count of lost events and the timeline's
// given-up mark read it. An interrupted event was not given up on.
func neverDelivered(fate string) bool {
	return fate != simulator.FateDelivered && fate != simulator.FateInterrupted
}

// outage extends or closes the current outage span. Records come in
// virtual-time order, so an attempt that met no outage ends the span.
func (r *runAgg) outage(rec *simulator.Record) {
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

func (r *runAgg) end(rec *simulator.Record) {
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

// eventAgg is what the aggregator follows of one event in flight; small,
// as a run may have a million of them.
type eventAgg struct {
	firstArrival, key int64         // virtual times, Unix nanoseconds
	need              time.Duration // latest arrival after the key
	arrivals          int32
	hasKey            bool
	// lastRedirUnreached: the last arrival's redirect was followed, and
	// nothing accepted the connection there (here, beside hasKey, it
	// takes the byte of padding before subs: the struct keeps its size).
	lastRedirUnreached bool
	subs               uint16 // the subscriptions (fan-out) an arrival came through, a bit each
	lastReached        simulator.Outcome
	lastLateInjected   bool           // the last arrival timed out only because a fault added latency
	lastRedirRefused   bool           // the last arrival's redirect was not followed: it led off this machine
	lastInjected       bool           // the scenario made the last arrival fail (injectedFailure)
	prevReached        bool           // the event's last attempt reached the handler
	arrived            EventArrivals  // which arrivals were duplicates
	duplicated         bool           // a duplicate arrival came
	refused            bool           // an arrival was turned away with a 4xx before one was taken in
	pooled             bool           // its timeline is held only until its fate says whether to keep it
	timeline           *EventTimeline // the timeline kept in memory, if any
	spooled            *spoolTail     // where the spooled timeline is, if any
}

// noteLostToDisable keeps the lowest MaxListedEvents sequence numbers of the
// events lost to the endpoint being disabled.
func (r *runAgg) noteLostToDisable(rec *simulator.Record) {
	i, _ := slices.BinarySearch(r.lostSeqs, rec.Seq)
	if i >= MaxListedEvents {
		return
	}
	r.lostSeqs = slices.Insert(r.lostSeqs, i, rec.Seq)
	r.LostToDisableIDs = slices.Insert(r.LostToDisableIDs, i, rec.EventID)
	if len(r.lostSeqs) > MaxListedEvents {
		r.lostSeqs = r.lostSeqs[:MaxListedEvents]
		r.LostToDisableIDs = r.LostToDisableIDs[:MaxListedEvents]
	}
}

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
