package report

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios/scenariotest"
	"github.com/retrysim/retrysim/simulator"
)

// shardStream runs a model run (one shard of it, or all) and returns its
// results stream.
func shardStream(t *testing.T, scenario string, shard simulator.Shard) []byte {
	t.Helper()
	pol := policytest.Lookup(t, "shopify")
	sc := scenariotest.Lookup(t, scenario)
	var b bytes.Buffer
	jw := NewJSONLWriter(&b)
	if _, err := simulator.Run(context.Background(), simulator.Config{
		Policy: pol, Scenario: sc, DryRun: true, Events: 4000, Over: 12 * time.Hour, Seed: 7, RunID: "merge", Tenants: 50,
		Shard: shard, Sink: jw.Add,
	}); err != nil {
		t.Fatal(err)
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// reportOf renders the runs add feeds in every text format.
func reportOf(t *testing.T, feed func(simulator.Sink) error) string {
	t.Helper()
	agg := NewAggregator(WithTimeline(-1), WithSpoolDir(t.TempDir()))
	defer agg.Close()
	if err := feed(agg.Add); err != nil {
		t.Fatal(err)
	}
	rep := &Report{Runs: agg.Runs(), Timeline: DefaultTimeline, Verbose: true}
	var out strings.Builder
	for _, f := range []string{FormatText, FormatJSON, FormatMarkdown, FormatCSV} {
		if err := Write(&out, rep, f); err != nil {
			t.Fatal(err)
		}
	}
	return out.String()
}

func TestMergedShardsReportAsTheWholeRun(t *testing.T) {
	t.Parallel()
	for _, scenario := range []string{"outage-6h", "flaky-network", "crash-restart"} {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel()
			whole := shardStream(t, scenario, simulator.Shard{})
			want := reportOf(t, func(add simulator.Sink) error { return ReadJSONL(bytes.NewReader(whole), add) })
			const n = 4
			var streams []ShardStream
			for i := n - 1; i >= 0; i-- { // in any order
				streams = append(streams, ShardStream{Name: "shard" + string(rune('0'+i)), R: bytes.NewReader(shardStream(t, scenario, simulator.Shard{Index: i, Of: n}))})
			}
			got := reportOf(t, func(add simulator.Sink) error { return MergeShards(streams, add) })
			if got != want {
				t.Fatalf("the merged shards' report differs from the whole run's:\n%s", firstDiff(want, got))
			}
			if !strings.Contains(want, "tenants") {
				t.Fatal("the whole run's report says nothing of tenants")
			}
		})
	}
}

// The merged run started when its first shard did: the earliest of the
// shards' wall-clock starts, whichever shard is numbered 0.
func TestMergedShardsStartWithTheFirstShard(t *testing.T) {
	const n = 3
	var streams []ShardStream
	var earliest time.Time
	for i := range n {
		b := shardStream(t, "outage-6h", simulator.Shard{Index: i, Of: n})
		var first simulator.Record
		if err := ReadJSONL(bytes.NewReader(b), func(r *simulator.Record) error {
			if r.Kind == simulator.KindRun {
				first = *r
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// Shard 0 started an hour after the others.
		w := time.Date(2031, 7, 9, 14, 0, 0, 0, time.UTC).Add(time.Duration(n-i) * time.Minute)
		if i == 0 {
			w = w.Add(time.Hour)
		}
		if i == n-1 {
			earliest = w
		}
		old, err := json.Marshal(first.WallStart)
		if err != nil || first.WallStart == nil {
			t.Fatalf("shard %d's run record has no wall start (%v)", i, err)
		}
		now, _ := json.Marshal(w)
		b = bytes.Replace(b, append([]byte(`"wall_start":`), old...), append([]byte(`"wall_start":`), now...), 1)
		streams = append(streams, ShardStream{Name: fmt.Sprint("shard", i), R: bytes.NewReader(b)})
	}
	var got *time.Time
	if err := MergeShards(streams, func(r *simulator.Record) error {
		if r.Kind == simulator.KindRun {
			got = r.WallStart
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if got == nil || !got.Equal(earliest) {
		t.Fatalf("merged run's wall start %v, want the earliest shard's %v", got, earliest)
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return "line " + al[i] + "\n  vs " + bl[i]
		}
	}
	return "one is longer"
}

func TestMergeRefusesWhatIsNotOneRun(t *testing.T) {
	s0 := shardStream(t, "happy", simulator.Shard{Index: 0, Of: 3})
	s1 := shardStream(t, "happy", simulator.Shard{Index: 1, Of: 3})
	other := shardStream(t, "outage-6h", simulator.Shard{Index: 2, Of: 3})
	for _, c := range []struct {
		name    string
		streams []ShardStream
		want    string
	}{
		{"missing", []ShardStream{{"a", bytes.NewReader(s0)}, {"b", bytes.NewReader(s1)}}, "shard 2 is missing"},
		{"doubled", []ShardStream{{"a", bytes.NewReader(s0)}, {"b", bytes.NewReader(s1)}, {"c", bytes.NewReader(s1)}}, "shard 1 of 3 is given twice: b and c"},
		{"another run", []ShardStream{{"a", bytes.NewReader(s0)}, {"b", bytes.NewReader(s1)}, {"c", bytes.NewReader(other)}}, "scenarios happy and outage-6h"},
	} {
		err := MergeShards(c.streams, func(*simulator.Record) error { return nil })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
		if c.name == "another run" && !errors.Is(err, ErrNotShards) {
			t.Errorf("%s: %v is not ErrNotShards", c.name, err)
		}
	}
}
