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

// NeverStarted counts the events an interrupted run was to deliver and
// never started: the interrupt came first. 0 for a run that was not
// interrupted, a run of real deliveries (nothing was planned), and one
// shard of a run read alone (the other shards' events are not its own).
func (r *Summary) NeverStarted() int {
	if !r.Interrupted || r.Shards > 0 {
		return 0
	}
	return max(r.Planned-r.Events, 0)
}
