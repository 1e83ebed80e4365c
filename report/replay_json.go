package report

import (
	"io"

	"github.com/retrysim/retrysim/simulator"
)

// ReplayJSON is the JSON form of a replay: the result, its checks and its
// verdict.
type ReplayJSON struct {
	*simulator.ReplayResult
	Writes        *int               `json:"writes"`
	Checks        []ReplayCheckWords `json:"checks"`
	Verdict       simulator.Verdict  `json:"verdict"`
	VerdictDetail string             `json:"verdict_detail"`
}

// WriteReplayJSON writes a replay as one indented JSON object (ReplayJSON);
// sp spells the settings the checks and the verdict may advise changing.
func WriteReplayJSON(w io.Writer, r *simulator.ReplayResult, sp simulator.Spelling) error {
	out := ReplayJSON{ReplayResult: r, Checks: ReplayChecks(r, sp), Verdict: r.Verdict(), VerdictDetail: ReplayVerdictLine(r, sp)}
	if n := r.Writes(); n >= 0 {
		out.Writes = &n
	}
	return writeIndentedJSON(w, out)
}
