package simulator

// Statuses of a ReplayCheck: CheckUnverified when there was no oracle to
// check the writes with ("unknown").
const (
	CheckPass       = "pass"
	CheckFail       = "fail"
	CheckUnverified = "unknown"
)

// ReplayCheckKind names one thing a careful engineer checks by hand after
// sending the same delivery again.
type ReplayCheckKind string

// The checks of a replay, in the order an engineer makes them.
const (
	// CheckFirstCall: the first call answered 2xx and wrote what it should
	// (once, or nothing for an event processed before the replay).
	CheckFirstCall ReplayCheckKind = "first_call"
	// CheckLaterAnswers: every later call answered 2xx.
	CheckLaterAnswers ReplayCheckKind = "later_answers"
	// CheckLaterWrites: no later call wrote.
	CheckLaterWrites ReplayCheckKind = "later_writes"
	// CheckOverlapAnswers: every one of overlapping (concurrent) calls
	// answered 2xx.
	CheckOverlapAnswers ReplayCheckKind = "overlap_answers"
	// CheckOverlapWrites: the overlapping calls wrote what one call should.
	CheckOverlapWrites ReplayCheckKind = "overlap_writes"
)

// ReplayCheck is one check of a replay, as a value: what was checked, how
// it came out, and the figures it rests on. report words it.
type ReplayCheck struct {
	Kind ReplayCheckKind
	// Status is CheckPass, CheckFail or CheckUnverified (no oracle).
	Status string
	// Sends are the numbers of the calls the check found at fault: those
	// that did not answer 2xx (the answers checks) or that wrote (the
	// later writes check); the first call's check names none.
	Sends []int
	// Writes is what the calls checked wrote in all, -1 when unknown.
	Writes int
}

// ReplayReason says why a replay's verdict is what it is.
type ReplayReason string

// The reasons of a replay's verdict.
const (
	// ReplayWroteOnce: IDEMPOTENT, one write in all.
	ReplayWroteOnce ReplayReason = "wrote_once"
	// ReplayProcessedBefore: IDEMPOTENT, no write for an event the handler
	// had processed before the replay.
	ReplayProcessedBefore ReplayReason = "processed_before"
	// ReplayWroteMore: NOT IDEMPOTENT, more writes than one.
	ReplayWroteMore ReplayReason = "wrote_more"
	// ReplayOracleFailed: UNKNOWN, the effects oracle failed
	// (ReplayResult.EffectsError).
	ReplayOracleFailed ReplayReason = "oracle_failed"
	// ReplayNoOracle: UNKNOWN, there was no effects oracle.
	ReplayNoOracle ReplayReason = "no_oracle"
	// ReplayHandlersRunning: UNKNOWN, handler calls cut off by the timeout
	// were still running, so a write may be missing.
	ReplayHandlersRunning ReplayReason = "handlers_running"
	// ReplayUnsettled: UNKNOWN, the oracle's answer was still changing
	// when retrysim stopped reading it.
	ReplayUnsettled ReplayReason = "unsettled"
	// ReplayNeverProcessed: UNKNOWN, the handler never processed the
	// event.
	ReplayNeverProcessed ReplayReason = "never_processed"
)

// ReplayJudgement is a replay's idempotency verdict as a value: the
// verdict, why, and the figures its words need.
type ReplayJudgement struct {
	Verdict Verdict
	Reason  ReplayReason
	// Writes is what the handler wrote during the replay (-1 unknown);
	// Sends how many calls were made.
	Writes, Sends int
}

// Writes is how many times the handler processed the event during the
// replay, by the oracle; -1 when unknown.
func (r *ReplayResult) Writes() int {
	if !r.EffectsKnown {
		return -1
	}
	return r.After - r.Before
}

// ExpectedWrites is what an idempotent handler writes during the replay: 1,
// or 0 when the event had been processed before it.
func (r *ReplayResult) ExpectedWrites() int {
	if r.Before > 0 {
		return 0
	}
	return 1
}

// Judge decides the replay's verdict: IDEMPOTENT when the handler wrote
// what it should (once in all, or not at all for an event it already had),
// NOT IDEMPOTENT when it wrote more, and UNKNOWN without an oracle, when a
// write of a cut-off handler may still be missing from the count, or when
// the handler never processed the event.
func (r *ReplayResult) Judge() ReplayJudgement {
	w := r.Writes()
	j := ReplayJudgement{Verdict: VerdictNone, Writes: w, Sends: len(r.Sends)}
	switch {
	case w < 0 && r.EffectsError != "":
		j.Reason = ReplayOracleFailed
	case w < 0:
		j.Reason = ReplayNoOracle
	case w > r.ExpectedWrites():
		j.Verdict, j.Reason = VerdictNotIdempotent, ReplayWroteMore
	case r.HandlersRunning > 0:
		j.Reason = ReplayHandlersRunning
	case r.EffectsUnsettled:
		j.Reason = ReplayUnsettled
	case w == 0 && r.Before == 0:
		j.Reason = ReplayNeverProcessed
	case r.Before > 0:
		j.Verdict, j.Reason = VerdictIdempotent, ReplayProcessedBefore
	default:
		j.Verdict, j.Reason = VerdictIdempotent, ReplayWroteOnce
	}
	return j
}

// Verdict is the verdict of Judge.
func (r *ReplayResult) Verdict() Verdict { return r.Judge().Verdict }

// Checks lists the checks, in the order an engineer makes them.
func (r *ReplayResult) Checks() []ReplayCheck {
	if len(r.Sends) == 0 {
		return nil
	}
	if r.Concurrent {
		return r.concurrentChecks()
	}
	first := &r.Sends[0]
	c := ReplayCheck{Kind: CheckFirstCall, Status: CheckPass, Writes: first.Writes}
	switch {
	case !first.OK():
		c.Status = CheckFail
	case first.Writes < 0:
		c.Status = CheckUnverified
	case first.Writes != r.ExpectedWrites():
		c.Status = CheckFail
	}
	out := []ReplayCheck{c}
	if len(r.Sends) == 1 {
		return out
	}
	rest := r.Sends[1:]
	answers := ReplayCheck{Kind: CheckLaterAnswers, Status: CheckPass, Sends: not2xx(rest), Writes: -1}
	if len(answers.Sends) > 0 {
		answers.Status = CheckFail
	}
	writes := ReplayCheck{Kind: CheckLaterWrites, Status: CheckPass}
	for i := range rest {
		switch w := rest[i].Writes; {
		case w < 0:
			writes.Status = CheckUnverified
		case w > 0:
			writes.Writes += w
			writes.Sends = append(writes.Sends, rest[i].N)
		}
	}
	switch {
	case writes.Status == CheckUnverified:
		writes.Writes, writes.Sends = -1, nil
	case writes.Writes > 0:
		writes.Status = CheckFail
	}
	return append(out, answers, writes)
}

func (r *ReplayResult) concurrentChecks() []ReplayCheck {
	answers := ReplayCheck{Kind: CheckOverlapAnswers, Status: CheckPass, Sends: not2xx(r.Sends), Writes: -1}
	if len(answers.Sends) > 0 {
		answers.Status = CheckFail
	}
	writes := ReplayCheck{Kind: CheckOverlapWrites, Status: CheckPass, Writes: r.Writes()}
	switch {
	case writes.Writes < 0:
		writes.Status = CheckUnverified
	case writes.Writes != r.ExpectedWrites():
		writes.Status = CheckFail
	}
	return []ReplayCheck{answers, writes}
}

// not2xx lists the numbers of the sends that did not answer 2xx.
func not2xx(sends []ReplaySend) []int {
	var out []int
	for i := range sends {
		if !sends[i].OK() {
			out = append(out, sends[i].N)
		}
	}
	return out
}
