//go:build !race

package simulator

// raceBuild says this is a race-detector build: see race.go.
const raceBuild = false
