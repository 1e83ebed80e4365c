//go:build !unix

package benchref

import "time"

// CPUTime is not measured on this platform: it is always 0, and Pairs
// then reports nothing.
func CPUTime() time.Duration { return 0 }
