//go:build !race

package simulator

// raceEnabled says the tests run under the race detector, which makes long
// runs several times slower.
const raceEnabled = false
