//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// writesToClosedPipesFail makes a write to a closed pipe (stdout read by
// `head`) fail with EPIPE, an output that could not be written (exit 3),
// instead of killing the process with SIGPIPE before it removes its
// temporary files.
func writesToClosedPipesFail() { signal.Ignore(syscall.SIGPIPE) }
