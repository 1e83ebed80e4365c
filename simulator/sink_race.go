//go:build race

package simulator

// checkSinks makes the engine check, in a race-detector build, that no sink
// keeps or changes the record it is lent.
const checkSinks = true
