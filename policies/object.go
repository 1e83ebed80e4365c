package policies

// objectRand returns a Rand keyed by the event's object and salt, and true,
// when the event names an object; the zero Rand and false when it names
// none. Every wire draws the id of the thing its payload is about (the
// customer, the order, the issue) from it, so all the events about one
// object carry the same id and a handler can tell that they are. The other
// details of an event still come from its seed.
func objectRand(ev Event, salt uint64) (Rand, bool) {
	if ev.Object == "" {
		return Rand{}, false
	}
	return Key(fnv64a(ev.Object), salt, 0x0b1ec7), true
}

// fnv64a is hash/fnv's 64-bit FNV-1a of s, without the hash.Hash and the
// copy of s that cost allocations for every event's body.
func fnv64a(s string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= prime
	}
	return h
}
