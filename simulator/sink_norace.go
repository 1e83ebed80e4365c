//go:build !race

package simulator

// checkSinks is off outside a race-detector build: lending the record costs
// nothing.
const checkSinks = false
