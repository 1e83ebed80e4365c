package report

// policyWords names the run's policy for a header, with its summary when
// it has one: "stripe (16 attempts over 3 days, exponential backoff)".
func (r *Run) policyWords() string {
	if r.PolicySummary == "" {
		return r.Policy
	}
	return r.Policy + " (" + r.PolicySummary + ")"
}

// scenarioWords names the run's scenario for a header, saying when it was
// the default rather than a choice: its faults are in the figures, and a
// reader who asked for none should know where they came from.
func (r *Run) scenarioWords() string { return r.Scenario + defaultWords(r) }

// defaultWords is " (default scenario)" for a run whose scenario nobody
// chose, "" otherwise.
func defaultWords(r *Run) string {
	if r.DefaultScenario {
		return " (default scenario)"
	}
	return ""
}
