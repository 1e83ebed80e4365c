package simulator

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// JobIndexEnv is the variable a Kubernetes Indexed Job sets to each pod's
// completion index: ParseShard takes a shard's index from it when the
// shard is written /N.
const JobIndexEnv = "JOB_COMPLETION_INDEX"

// ShardSyntaxError says a shard's spelling was not I/N (shard I, from 0,
// of N), nor /N with I in JobIndexEnv.
type ShardSyntaxError struct {
	// Value is the spelling given.
	Value string
	// NoSlash says Value has no "/".
	NoSlash bool
	// NoEnv says Value is /N and JobIndexEnv is not set.
	NoEnv bool
	// Index and Of are Value's parts as read (Index from JobIndexEnv when
	// FromEnv), when they are not a shard: not numbers, N below 1, or I
	// not from 0 to N-1.
	Index, Of string
	FromEnv   bool
}

func (e *ShardSyntaxError) Error() string {
	switch {
	case e.NoSlash:
		return fmt.Sprintf("%s %q: not I/N", SettingShard, e.Value)
	case e.NoEnv:
		return fmt.Sprintf("%s %s takes its index from $%s, which is not set", SettingShard, e.Value, JobIndexEnv)
	}
	return fmt.Sprintf("%s %s/%s: not a shard: N must be at least 1 and I from 0 to N-1", SettingShard, e.Index, e.Of)
}

// ParseShard reads a shard spelled I/N, or /N with I from JobIndexEnv as
// getenv gives it. A spelling that is not a shard is a *ShardSyntaxError.
func ParseShard(v string, getenv func(string) string) (Shard, error) {
	i, n, ok := strings.Cut(v, "/")
	if !ok {
		return Shard{}, &ShardSyntaxError{Value: v, NoSlash: true}
	}
	fromEnv := i == ""
	if fromEnv {
		if i = getenv(JobIndexEnv); i == "" {
			return Shard{}, &ShardSyntaxError{Value: v, NoEnv: true}
		}
	}
	idx, err1 := strconv.Atoi(i)
	of, err2 := strconv.Atoi(n)
	if err := errors.Join(err1, err2); err != nil || of < 1 || idx < 0 || idx >= of {
		return Shard{}, &ShardSyntaxError{Value: v, Index: i, Of: n, FromEnv: fromEnv}
	}
	return Shard{Index: idx, Of: of}, nil
}
