package policies

import (
	"encoding/hex"
	"math"
	"slices"
)

// Rand is a tiny deterministic random source (SplitMix64). Every random
// choice retrysim makes comes from a Rand keyed by the seed and by what the
// choice is about (event, attempt, fault), never by scheduling order, so the
// same seed gives the same run at any concurrency. The zero value is usable;
// a Rand must not be shared between goroutines.
type Rand struct{ state uint64 }

// NewRand returns a Rand keyed by the given values, in order.
func NewRand(keys ...uint64) Rand {
	var r Rand
	for _, k := range keys {
		r.state ^= k
		r.state = mix(r.state + 0x9e3779b97f4a7c15)
	}
	return r
}

// Key returns a Rand keyed like NewRand(seed, a, b) without allocating.
func Key(seed, a, b uint64) Rand {
	r := Rand{mix(seed + 0x9e3779b97f4a7c15)}
	r.state = mix((r.state ^ a) + 0x9e3779b97f4a7c15)
	r.state = mix((r.state ^ b) + 0x9e3779b97f4a7c15)
	return r
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Uint64 returns the next 64 random bits.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix(r.state)
}

// Float64 returns a number in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// IntN returns a number in [0, n); n must be positive.
func (r *Rand) IntN(n int) int { return int(r.Uint64() % uint64(n)) }

// Int64N is IntN for an int64 n: the same draw, so the two return the
// same number for the same n. Ids past math.MaxInt32 use it, so that they
// fit in an int64 on 32-bit platforms.
func (r *Rand) Int64N(n int64) int64 { return int64(r.Uint64() % uint64(n)) }

// Norm returns a standard normal deviate (Box–Muller).
func (r *Rand) Norm() float64 {
	u := 1 - r.Float64()
	v := r.Float64()
	return math.Sqrt(-2*math.Log(u)) * math.Cos(2*math.Pi*v)
}

// Hex returns n random bytes as 2n lowercase hex digits.
func (r *Rand) Hex(n int) string {
	b := make([]byte, n)
	r.fill(b)
	return hex.EncodeToString(b)
}

// AppendHex appends what Hex(n) returns to dst: an id built of a prefix
// and random digits then costs one allocation, not three.
func (r *Rand) AppendHex(dst []byte, n int) []byte {
	const digits = "0123456789abcdef"
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			c := byte(v >> (8 * j))
			dst = append(dst, digits[c>>4], digits[c&0x0f])
		}
	}
	return dst
}

// Alnum returns n characters from [0-9A-Za-z], as in Stripe's ids.
func (r *Rand) Alnum(n int) string {
	return string(r.AppendAlnum(make([]byte, 0, n), n))
}

// alnumID returns prefix followed by Alnum(n), in one allocation.
func (r *Rand) alnumID(prefix string, n int) string {
	var buf [64]byte
	b := buf[:0]
	if len(prefix)+n > len(buf) {
		b = make([]byte, 0, len(prefix)+n)
	}
	return string(r.AppendAlnum(append(b, prefix...), n))
}

// AppendAlnum appends what Alnum(n) returns to dst.
func (r *Rand) AppendAlnum(dst []byte, n int) []byte {
	const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	dst = slices.Grow(dst, n)
	out := dst[len(dst) : len(dst)+n]
	for i := range out {
		out[i] = chars[r.IntN(len(chars))]
	}
	return dst[:len(dst)+n]
}

// UUID returns a version-4 UUID in its usual text form.
func (r *Rand) UUID() string { return string(r.AppendUUID(make([]byte, 0, 36))) }

// AppendUUID appends what UUID returns to dst.
func (r *Rand) AppendUUID(dst []byte) []byte {
	const digits = "0123456789abcdef"
	var b [16]byte
	r.fill(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			dst = append(dst, '-')
		}
		dst = append(dst, digits[c>>4], digits[c&0x0f])
	}
	return dst
}

func (r *Rand) fill(b []byte) {
	for i := 0; i < len(b); i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < len(b); j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
}
