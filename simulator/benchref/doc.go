// Package benchref holds what the project's benchmarks measure the engine
// against and how they state the comparison: a bare binary-heap loop (the
// least work a discrete-event model of the same attempts can do), the
// process's CPU time, and per-pair ratios of two sides run by turns.
//
// It is for benchmarks only; nothing the command runs imports it.
package benchref
