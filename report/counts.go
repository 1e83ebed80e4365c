package report

import "github.com/retrysim/retrysim/simulator"

// outcomeCounts counts attempts by outcome while a run is aggregated:
// the outcomes the engine writes in an array, indexed by their place in
// simulator.Outcomes, and any other a stream holds in a map. Counting
// into a map keyed by a string cost a tenth of a long run's aggregation;
// the facts' maps are built from it once, when the run is concluded.
type outcomeCounts struct {
	known [maxOutcomes]int
	other map[simulator.Outcome]int
}

// maxOutcomes is room for simulator.Outcomes; an outcome past it is
// counted in the map.
const maxOutcomes = 8

// outcomeIndex gives each outcome the engine writes its place in
// simulator.Outcomes, the order the counts are kept in.
type outcomeIndex struct {
	names []simulator.Outcome
}

func newOutcomeIndex() outcomeIndex {
	names := simulator.Outcomes()
	return outcomeIndex{names: names[:min(len(names), maxOutcomes)]}
}

// of returns o's place, or -1 for an outcome the engine does not write.
func (x outcomeIndex) of(o simulator.Outcome) int {
	for i, n := range x.names {
		if n == o {
			return i
		}
	}
	return -1
}

func (c *outcomeCounts) add(x outcomeIndex, o simulator.Outcome) { c.addAt(x.of(o), o) }

// addAt counts o, whose place (outcomeIndex.of) is i: for an attempt
// counted twice, found once.
func (c *outcomeCounts) addAt(i int, o simulator.Outcome) {
	if i >= 0 {
		c.known[i]++
		return
	}
	if c.other == nil {
		c.other = map[simulator.Outcome]int{}
	}
	c.other[o]++
}

// facts returns the counts as the Summary holds them: a new map with the
// outcomes counted at least once.
func (c *outcomeCounts) facts(x outcomeIndex) map[simulator.Outcome]int {
	m := make(map[simulator.Outcome]int, len(c.other)+len(x.names))
	for i, n := range x.names {
		if c.known[i] > 0 {
			m[n] = c.known[i]
		}
	}
	for o, n := range c.other {
		m[o] += n
	}
	return m
}

// statusCounts counts the handler's answers by HTTP status: those from
// 100 to 599 in an array, any other in a map.
type statusCounts struct {
	known [600]int
	other map[int]int
}

func (c *statusCounts) add(status int) {
	if status >= 0 && status < len(c.known) {
		c.known[status]++
		return
	}
	if c.other == nil {
		c.other = map[int]int{}
	}
	c.other[status]++
}

// facts returns the counts as the Summary holds them: a new map with the
// statuses counted at least once.
func (c *statusCounts) facts() map[int]int {
	m := make(map[int]int, len(c.other))
	for s, n := range c.known {
		if n > 0 {
			m[s] = n
		}
	}
	for s, n := range c.other {
		m[s] += n
	}
	return m
}
