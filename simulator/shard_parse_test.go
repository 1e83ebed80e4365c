package simulator

import (
	"errors"
	"testing"
)

// TestParseShard: I/N and /N (index from the Indexed Job's variable) are
// shards; anything else is a *ShardSyntaxError saying which way it is not.
func TestParseShard(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == JobIndexEnv {
				return v
			}
			return ""
		}
	}
	for _, tc := range []struct {
		v, index string
		want     Shard
		bad      ShardSyntaxError
	}{
		{v: "0/4", want: Shard{0, 4}},
		{v: "3/4", want: Shard{3, 4}},
		{v: "/4", index: "2", want: Shard{2, 4}},
		{v: "4", bad: ShardSyntaxError{Value: "4", NoSlash: true}},
		{v: "/4", bad: ShardSyntaxError{Value: "/4", NoEnv: true}},
		{v: "4/4", bad: ShardSyntaxError{Value: "4/4", Index: "4", Of: "4"}},
		{v: "0/0", bad: ShardSyntaxError{Value: "0/0", Index: "0", Of: "0"}},
		{v: "-1/2", bad: ShardSyntaxError{Value: "-1/2", Index: "-1", Of: "2"}},
		{v: "/2", index: "x", bad: ShardSyntaxError{Value: "/2", Index: "x", Of: "2", FromEnv: true}},
	} {
		got, err := ParseShard(tc.v, env(tc.index))
		var se *ShardSyntaxError
		switch {
		case tc.bad.Value == "" && err != nil:
			t.Errorf("ParseShard(%q) = %v", tc.v, err)
		case tc.bad.Value == "" && got != tc.want:
			t.Errorf("ParseShard(%q) = %v, want %v", tc.v, got, tc.want)
		case tc.bad.Value != "" && !errors.As(err, &se):
			t.Errorf("ParseShard(%q) = %v, %v: want a *ShardSyntaxError", tc.v, got, err)
		case tc.bad.Value != "" && *se != tc.bad:
			t.Errorf("ParseShard(%q): %+v, want %+v", tc.v, *se, tc.bad)
		}
	}
}

// FuzzParseShard: whatever the spelling, a shard read is one of its run's
// parts, and a refusal is a *ShardSyntaxError.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "/8", "8/8", "x/y", ""} {
		f.Add(s, "1")
	}
	f.Fuzz(func(t *testing.T, v, index string) {
		s, err := ParseShard(v, func(string) string { return index })
		var se *ShardSyntaxError
		switch {
		case err != nil && !errors.As(err, &se):
			t.Fatalf("ParseShard(%q): %v is not a *ShardSyntaxError", v, err)
		case err == nil && (s.Of < 1 || s.Index < 0 || s.Index >= s.Of):
			t.Fatalf("ParseShard(%q) = %v, not a shard", v, s)
		}
	})
}
