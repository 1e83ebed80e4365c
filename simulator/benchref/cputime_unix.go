//go:build unix

package benchref

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used, user and system, GC
// included. On a machine shared with other work it is steadier than the
// wall time, which counts the time other processes held the cores.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
