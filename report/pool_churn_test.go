package report

import "testing"

// The timelines held in the exemplar pool and then dropped do not pile up
// over a long run: what is kept in memory follows the pool and the
// exemplars, not the events that passed through the pool. The sample
// picked is what it would be without the clean-up (the golden tests).
func TestPoolTurnsOverWithoutGrowing(t *testing.T) {
	const events = 20_000
	a := aggregate(t, stream("stripe", events, 8, 0))
	run := a.runs[0]
	if len(run.kept) > 4*poolSize {
		t.Errorf("%d timelines in the kept list after %d events through a pool of %d", len(run.kept), events, poolSize)
	}
	if got := len(a.Runs()[0].stored.kept); got == 0 || got > 4*poolSize {
		t.Errorf("%d timelines in the report's sample", got)
	}
}
