package report

// hashCounts counts by 30-bit hash, as a map[uint32]int32 would, in one
// slice of eight-byte entries with no pointer (open addressing, linear
// probing): about 11 bytes a count against a map's 22, for the millions of
// objects a long run against a black hole has in flight.
type hashCounts struct {
	// slots hold hash+1 in the high 32 bits (0: empty) and the count in
	// the low ones; their number is a power of two.
	slots []uint64
	n     int
}

// add adds d to h's count and returns the new count; a count that comes
// to 0 is removed.
func (c *hashCounts) add(h uint32, d int32) int32 {
	if len(c.slots) == 0 {
		c.slots = make([]uint64, 64)
	}
	key := uint64(h+1) << 32
	mask := len(c.slots) - 1
	i := probeHome(h, mask)
	for ; c.slots[i] != 0; i = (i + 1) & mask {
		if c.slots[i]&^(1<<32-1) == key {
			n := int32(uint32(c.slots[i])) + d
			if n == 0 {
				c.n--
				probeEmpty(c.slots, i, countHash)
				return 0
			}
			c.slots[i] = key | uint64(uint32(n))
			return n
		}
	}
	if d == 0 {
		return 0
	}
	c.slots[i] = key | uint64(uint32(d))
	if c.n++; 4*c.n > 3*len(c.slots) {
		c.slots = probeGrow(c.slots, countHash)
	}
	return d
}

// countHash is the hash of an entry of hashCounts.slots.
func countHash(s uint64) uint32 { return uint32(s>>32 - 1) }

// len returns how many hashes have a count.
func (c *hashCounts) len() int { return c.n }
