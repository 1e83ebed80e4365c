package report

import "fmt"

// ToleranceAdvice is advice, never a failure, for a scheme that signs a
// timestamp whose provider documents no bound on its age and whose
// libraries check none (Discord, Zoom): bounding it is good practice, and
// until a handler does, only dedup stops a replay. "" for other schemes, or
// when the run sent no attack (the signature was not looked at).
func (r *Run) ToleranceAdvice() string {
	if r.AdvisedTolerance <= 0 || len(r.Attacks()) == 0 {
		return ""
	}
	return fmt.Sprintf("advice, not a requirement: %s documents no bound on its signed timestamp's age and its libraries check none; rejecting a request signed more than %s ago is good practice, and until then only dedup on the %s stops a replay",
		r.Provider, dur(r.AdvisedTolerance), r.DedupField)
}
