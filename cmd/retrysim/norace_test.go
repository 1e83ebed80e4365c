//go:build !race

package main

// raceSlowdown is 1 without the race detector.
const raceSlowdown = 1
