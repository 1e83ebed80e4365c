package simulator

import (
	"crypto/rand"
	"errors"
	"fmt"
	"hash/fnv"
)

// A run id tells two runs of one command apart. The seed decides the
// timeline and every fault; the run id is mixed into every event's (and
// every attack's) dedup id, so a second run against the same handler
// sends ids it has never seen, and counts kept from an earlier run cannot
// be taken for this one's. Giving a run's id again (Config.RunID)
// reproduces its ids exactly.

// runIDLen is the length of a generated run id.
const runIDLen = 8

// MaxRunID is the longest run id a Config accepts.
const MaxRunID = 64

// runIDAlphabet is what a generated run id is made of: lowercase letters
// and digits, without the ones easily misread (0, 1, l, o).
const runIDAlphabet = "abcdefghijkmnpqrstuvwxyz23456789"

// ErrRunID is returned, wrapped, for a run id that is not one.
var ErrRunID = errors.New("invalid run id")

// NewRunID returns a fresh run id: 8 letters and digits from the system's
// random source, so two runs never share one by chance worth counting.
func NewRunID() string {
	b := make([]byte, runIDLen)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	for i := range b {
		b[i] = runIDAlphabet[int(b[i])%len(runIDAlphabet)]
	}
	return string(b)
}

// CheckRunID reports whether id can be a run id: 1 to MaxRunID ASCII
// letters, digits, '-' or '_'.
func CheckRunID(id string) error {
	if id == "" || len(id) > MaxRunID {
		return fmt.Errorf("%w %q: give 1 to %d letters, digits, '-' or '_'", ErrRunID, id, MaxRunID)
	}
	for _, c := range []byte(id) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("%w %q: %q is not a letter, digit, '-' or '_'", ErrRunID, id, c)
		}
	}
	return nil
}

// runKey is the number a run id mixes into every id of the run.
func runKey(id string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()
}
