//go:build unix

package outfile

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process with this id runs (or may: one
// of another user's answers EPERM).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
