package report

import "github.com/retrysim/retrysim/policies"

// plural and counted are policies.Plural and policies.Counted under the
// short names report's sentences use.
var (
	plural  = policies.Plural
	counted = policies.Counted
)
