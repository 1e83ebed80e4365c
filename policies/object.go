package policies

import "hash/fnv"

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
	h := fnv.New64a()
	h.Write([]byte(ev.Object))
	return Key(h.Sum64(), salt, 0x0b1ec7), true
}
