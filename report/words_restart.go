package report

import (
	"fmt"
	"strings"
)

// The words of a restart of the handler that failed and stopped a run.

// restartFailedWords says, in a run's report, that its handler could not
// be restarted and the run stopped there.
func restartFailedWords(f *FailedRestart) string {
	return fmt.Sprintf("the handler could not be restarted at +%s (%s), so the run stopped there; what follows covers the attempts made before it.", dur(f.At), f.Error)
}

// StoppedByRestart says which runs a failed restart of their handler
// stopped, and why, a run a sentence: what a command says as it exits
// after the report; "" when none was.
func StoppedByRestart(runs []*Summary) string {
	var out []string
	for _, r := range runs {
		if f := r.RestartFailed; f != nil {
			out = append(out, fmt.Sprintf("%s: the handler could not be restarted at +%s: %s; the run stopped there, and the report above covers the attempts made before it", r.Policy, dur(f.At), f.Error))
		}
	}
	return strings.Join(out, "\n")
}
