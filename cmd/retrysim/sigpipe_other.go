//go:build !unix

package main

// writesToClosedPipesFail has nothing to do here: there is no SIGPIPE.
func writesToClosedPipesFail() {}
