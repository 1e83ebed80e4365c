package report

import "fmt"

// plannedWords says how many events the run was to deliver, or, for a run
// of real deliveries taken as they came, how many came.
func (r *Run) plannedWords() string {
	if r.Planned == 0 {
		return fmt.Sprintf("%d real %s", r.Events, plural(r.Events, "delivery", "deliveries"))
	}
	return counted(r.Planned, "event", "events")
}
