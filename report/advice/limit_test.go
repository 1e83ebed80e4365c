package advice_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// TestLimitWords: the engine's limits are said with the flag, the value as
// the user spelled it, and the range; a reserved value says so.
func TestLimitWords(t *testing.T) {
	for _, tc := range []struct {
		flag, given string
		err         error
		want        string
	}{
		{"events", "", simulator.CheckEvents(0), fmt.Sprintf("--events: 0 is out of range (1..%d)", simulator.MaxEvents)},
		{"seed", "", simulator.CheckSeed(0), "--seed: 0 is reserved; use any other number"},
		{"over", "0s", simulator.CheckOver(0), "--over: 0s is out of range (above 0, at most "},
		{"settle", "", errors.New("bad"), "--settle: bad"},
	} {
		err := advice.Limit(tc.flag, tc.given, tc.err)
		if err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want {
			t.Errorf("Limit(%q, %q, %v) = %v, want %q…", tc.flag, tc.given, tc.err, err, tc.want)
		}
	}
	if err := advice.Limit("events", "", nil); err != nil {
		t.Errorf("Limit of no error = %v, want nil", err)
	}
}

// TestOracleNamesTheFlagToFix: each kind of database problem names the
// flag the user fixes it with.
func TestOracleNamesTheFlagToFix(t *testing.T) {
	for _, tc := range []struct {
		reason oracle.Reason
		want   string
	}{
		{oracle.ReasonUnreachable, "--effects-url: cannot reach the database (p): is the server running, at that host and port?"},
		{oracle.ReasonLogin, "--effects-url: the database refused the login (p): check the user and password in the URL"},
		{oracle.ReasonNoDatabase, "--effects-url: no such database (p): check the database name or file path in the URL"},
		{oracle.ReasonDenied, "--effects-url: the database let the user in but refused it access (p): check the database and table names, and grant the user what the queries read (SELECT on their tables; on PostgreSQL, CONNECT on the database)"},
		{oracle.ReasonNoTable, "--effects-query or --pending-query names a table or column the database does not have (p): check the query against your handler's schema"},
		{oracle.ReasonPendingQuery, "--pending-query: p"},
		{oracle.ReasonAnswer, "--effects-query: p"},
	} {
		if got := advice.Oracle(&oracle.Error{Problem: "p", Reason: tc.reason}).Error(); got != tc.want {
			t.Errorf("reason %q: %q, want %q", tc.reason, got, tc.want)
		}
	}
	if got, want := advice.Oracle(errors.New("x")).Error(), "--effects-url: x"; got != want {
		t.Errorf("another error: %q, want %q", got, want)
	}
}

// TestShardWords: a --shard that is not a shard says the spellings that
// are, and where its index came from.
func TestShardWords(t *testing.T) {
	for _, tc := range []struct{ v, index, want string }{
		{"4", "", `--shard "4": give I/N (shard I, from 0, of N), or /N in a Kubernetes Indexed Job`},
		{"/4", "", "--shard /4 takes the shard's index from $JOB_COMPLETION_INDEX, which is not set: give I/N, or run it as a pod of an Indexed Job"},
		{"/4", "9", "--shard 9/4 ($JOB_COMPLETION_INDEX): not a shard: give I/N with N at least 1 and I from 0 to N-1"},
		{"4/4", "", "--shard 4/4: not a shard: give I/N with N at least 1 and I from 0 to N-1"},
	} {
		_, err := simulator.ParseShard(tc.v, func(string) string { return tc.index })
		if got := advice.Shard(err); got == nil || got.Error() != tc.want {
			t.Errorf("%q: %v, want %q", tc.v, got, tc.want)
		}
	}
}

// TestSpan: a duration flag's value is read, a bad one names the flag,
// and one the engine's limit refuses says the range in the user's
// spelling.
func TestSpan(t *testing.T) {
	d, err := advice.Span("over", "90m", simulator.CheckOver)
	if err != nil || d != 90*time.Minute {
		t.Errorf("90m: %s, %v", d, err)
	}
	if _, err := advice.Span("over", "soon", simulator.CheckOver); err == nil || !strings.HasPrefix(err.Error(), "--over: ") {
		t.Errorf("soon: %v", err)
	}
	if _, err := advice.Span("settle", "100d", simulator.CheckSettle); err == nil || err.Error() != "--settle: 100d is out of range (above 0, at most 1d)" {
		t.Errorf("100d: %v", err)
	}
}
