package demo

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

// Each example program's --help lists the flags it reads, and only those.
func TestProgramHelpListsOwnFlags(t *testing.T) {
	common := []string{"-addr", "-db", "-secret", "-seed"}
	own := map[Mode][]string{TTL: {"-ttl"}, CheckThenAct: {"-work"}, Queue: {"-work"}, QueueUnguarded: {"-work"}}
	for _, m := range Modes() {
		t.Run(string(m), func(t *testing.T) {
			var out, errb bytes.Buffer
			if code := Program(context.Background(), m, []string{"--help"}, &out, &errb); code != 2 {
				t.Fatalf("--help exited %d, want 2", code)
			}
			want := append(slices.Clone(common), own[m]...)
			for _, f := range []string{"-addr", "-db", "-secret", "-seed", "-ttl", "-work"} {
				listed := strings.Contains(errb.String(), "  "+f+" ")
				if listed != slices.Contains(want, f) {
					t.Errorf("%s listed: %v, want %v\n%s", f, listed, !listed, errb.String())
				}
			}
		})
	}
}
