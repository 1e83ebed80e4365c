package report

import "fmt"

// policyWords names the run's policy for a header, with its summary when
// it has one: "stripe (16 attempts over 3 days, exponential backoff)".
func (r *Summary) policyWords() string {
	if r.PolicySummary == "" {
		return r.Policy
	}
	return r.Policy + " (" + r.PolicySummary + ")"
}

// scenarioWords names the run's scenario for a header, saying when it was
// the default rather than a choice: its faults are in the figures, and a
// reader who asked for none should know where they came from.
func (r *Summary) scenarioWords() string { return r.Scenario + defaultWords(r) }

// defaultWords is " (default scenario)" for a run whose scenario nobody
// chose, "" otherwise.
func defaultWords(r *Summary) string {
	if r.DefaultScenario {
		return " (default scenario)"
	}
	return ""
}

// seedWords names what reproduces the run: "seed 7 · run k3f9q2ab" (the
// seed gives the timeline and the faults, the run id the event ids), or
// the seed alone for a stream written before runs had an id.
func (r *Summary) seedWords() string {
	if r.RunID == "" {
		return fmt.Sprintf("seed %d", r.Seed)
	}
	return fmt.Sprintf("seed %d · run %s", r.Seed, r.RunID)
}

// plannedWords says how many events the run was to deliver, or, for a run
// of real deliveries taken as they came, how many came.
func (r *Summary) plannedWords() string {
	if r.Planned == 0 {
		return fmt.Sprintf("%d real %s", r.Events, plural(r.Events, "delivery", "deliveries"))
	}
	return counted(r.Planned, "event", "events")
}
