package report

// RunsCut reports whether an interrupt cut the runs short: a run's end
// record says so, or, when the command was interrupted, one of the want
// runs it named never started. A signal that came once every run had
// ended (while the effects settled, or the report was written) cut
// nothing: the stream and the report say the runs are complete, and the
// gates decide how the command ends.
func RunsCut(runs []*Summary, want int, interrupted bool) bool {
	for _, r := range runs {
		if r.Interrupted {
			return true
		}
	}
	return interrupted && len(runs) < want
}
