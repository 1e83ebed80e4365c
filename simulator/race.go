//go:build race

package simulator

// raceBuild says this is a race-detector build (go test -race, as CI runs
// every test). The engine then checks that no sink keeps or changes the
// record it is lent; the tests shorten runs the detector makes several
// times slower.
const raceBuild = true
