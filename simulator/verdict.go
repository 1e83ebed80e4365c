package simulator

// Verdict is an idempotency verdict, in the words of the JSON reports: a
// run's (report.Summary.Judge decides it from the run's records) and a
// replay's (ReplayResult.Verdict) are values of this one type.
type Verdict string

// The idempotency verdicts.
const (
	// VerdictIdempotent: the handler processed every event at most once,
	// and the test happened (a duplicate reached it).
	VerdictIdempotent Verdict = "idempotent"
	// VerdictNotIdempotent: the handler processed an event more than once.
	VerdictNotIdempotent Verdict = "not_idempotent"
	// VerdictNone: the run or replay showed neither, because the effects
	// could not be seen or vouched for, or nothing put idempotency to the
	// test. Its value stays "unknown", as in the JSON reports.
	VerdictNone Verdict = "unknown"
)
