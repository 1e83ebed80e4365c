//go:build !unix

package simulator

import "time"

// cpuTime is not measured on this platform; benchmarks then report 0.
func cpuTime() time.Duration { return 0 }
