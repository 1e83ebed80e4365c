package interrupt

import (
	"slices"
	"testing"
)

// TestExitNowHooks: the hooks run newest first, and one removed (what it
// guarded was done) does not run.
func TestExitNowHooks(t *testing.T) {
	var ran []string
	removeA := OnExitNow(func() { ran = append(ran, "a") })
	defer removeA()
	removeB := OnExitNow(func() { ran = append(ran, "b") })
	removeC := OnExitNow(func() { ran = append(ran, "c") })
	defer removeC()
	removeB()
	RunExitNow()
	if want := []string{"c", "a"}; !slices.Equal(ran, want) {
		t.Errorf("hooks ran %v, want %v", ran, want)
	}
}
