//go:build race

package main

// raceSlowdown is how much slower timing-sensitive assertions may be under
// the race detector, which slows every goroutine switch.
const raceSlowdown = 4
