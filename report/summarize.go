package report

import "github.com/retrysim/retrysim/simulator"

// Summarize folds a whole record stream, as simulator.Collect gathers it,
// into its runs (one per policy, scenario and seed, in the order they
// began): what a Go test asserts on. The stream being in memory already,
// every timeline kept stays there too (nothing to Close).
//
//	runs, err := report.Summarize(records)
//	if runs[0].Verdict() != report.Idempotent { t.Error(runs[0].VerdictLine()) }
func Summarize(records []simulator.Record, opts ...Option) ([]*Run, error) {
	a := NewAggregator(append(opts, inMemory())...)
	for _, r := range records {
		if err := a.Add(r); err != nil {
			return nil, err
		}
	}
	return a.Runs(), nil
}
