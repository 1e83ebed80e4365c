package report

// The report's two open-addressing tables (hashCounts, keptObjects) probe
// linearly from a slot chosen by Fibonacci hashing, and keep every entry
// reachable from its home slot when one is removed by moving back the
// entries that probed past it, so that no tombstone is left. They differ
// in their entries; how the table is kept is written once, here.

// probeHome is the slot where an entry of hash h begins its probe, in a
// table of mask+1 slots (a power of two).
func probeHome(h uint32, mask int) int { return int(h*2654435769) & mask }

// probeEmpty empties slot i of slots, whose entries have the hashes
// hashOf gives (the zero entry is an empty slot), moving back the entries
// after it that probed past it.
func probeEmpty[S comparable](slots []S, i int, hashOf func(S) uint32) {
	var empty S
	mask := len(slots) - 1
	for j := (i + 1) & mask; slots[j] != empty; j = (j + 1) & mask {
		home := probeHome(hashOf(slots[j]), mask)
		// The entry at j may move to i if i lies on its way from home to j.
		if (j-home)&mask >= (j-i)&mask {
			slots[i] = slots[j]
			i = j
		}
	}
	slots[i] = empty
}

// probeGrow returns a table of twice old's slots holding old's entries.
func probeGrow[S comparable](old []S, hashOf func(S) uint32) []S {
	var empty S
	slots := make([]S, 2*len(old))
	mask := len(slots) - 1
	for _, s := range old {
		if s == empty {
			continue
		}
		i := probeHome(hashOf(s), mask)
		for slots[i] != empty {
			i = (i + 1) & mask
		}
		slots[i] = s
	}
	return slots
}
