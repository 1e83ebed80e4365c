package report

import (
	"bufio"
	"bytes"
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// Merging the shards of a run. A run split by tenant (simulator.Shard)
// writes one results stream per shard; each is the whole run's records of
// its tenants, in the whole run's order, because tenants share no state.
// Every record between a run's opening and its effects is placed in that
// order by its virtual time and event (a restart before every attempt at
// its moment), so merging the streams by (time, restart first, event),
// keeping each stream's own order among equals, gives the whole run's
// stream: the same records in the same order, the run and end records
// made one. Only the effects records may come in another order (a report
// reads them into a map, by id).

// ShardStream is one shard's results stream and the name it is known by
// (its file).
type ShardStream struct {
	Name string
	R    io.Reader
}

// ErrNotShards is returned, wrapped, for streams that are not every shard
// of one run, once each.
var ErrNotShards = errors.New("not the shards of one run")

// MergeShards reads the streams, each one shard of the same sharded run,
// and passes the whole run's records to add in its order, as a
// simulator.Sink: the record is lent for the call. Its memory is a line
// and a record per stream. It refuses streams of different runs, a stream
// of several runs, and a missing or doubled shard, naming it.
func MergeShards(streams []ShardStream, add simulator.Sink) error {
	ins := make([]*shardIn, len(streams))
	for i, s := range streams {
		in := &shardIn{name: s.Name, sc: bufio.NewScanner(s.R)}
		in.sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
		if err := in.next(); err != nil {
			return err
		}
		if in.done || in.rec.Kind != simulator.KindRun {
			return fmt.Errorf("%s: %w: it does not open with a run record", in.name, ErrNotShards)
		}
		in.run = in.rec
		ins[i] = in
	}
	if err := checkShards(ins); err != nil {
		return err
	}
	sort.Slice(ins, func(a, b int) bool { return ins[a].run.Shard < ins[b].run.Shard })
	run := ins[0].run
	run.Shard, run.Shards = 0, 0
	for _, in := range ins { // the run started when its first shard did
		if w := in.run.WallStart; w != nil && (run.WallStart == nil || w.Before(*run.WallStart)) {
			run.WallStart = w
		}
	}
	if err := add(&run); err != nil {
		return err
	}
	// What comes before the first event (a handshake, the attacks a
	// scheme makes pointless, the provider's probe) is the endpoint's,
	// the same in every shard: shard 0's is written.
	for i, in := range ins {
		if err := in.next(); err != nil {
			return err
		}
		for !in.done && !in.body() && !in.tail() {
			if i == 0 {
				if err := add(&in.rec); err != nil {
					return err
				}
			}
			if err := in.next(); err != nil {
				return err
			}
		}
	}
	h := &shardHeap{}
	for _, in := range ins {
		if !in.done && in.body() {
			heap.Push(h, in)
		}
	}
	for h.Len() > 0 {
		in := (*h)[0]
		// A restart is the handler's, written by every shard: once.
		if in.rec.Kind != simulator.KindRestart || in.run.Shard == 0 {
			if err := add(&in.rec); err != nil {
				return err
			}
		}
		if err := in.next(); err != nil {
			return err
		}
		if in.done || !in.body() {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	// The effects, then one end record for the run.
	var ends []simulator.Record
	for _, in := range ins {
		for !in.done {
			switch in.rec.Kind {
			case simulator.KindEnd:
				ends = append(ends, in.rec)
			case simulator.KindEffects:
				if err := add(&in.rec); err != nil {
					return err
				}
			default:
				return fmt.Errorf("%s line %d: %w: a %s record after the run's events", in.name, in.line, ErrNotShards, in.rec.Kind)
			}
			if err := in.next(); err != nil {
				return err
			}
		}
	}
	if len(ends) < len(ins) {
		return nil // a stream cut off: the run reads as incomplete
	}
	end := mergeEnds(ends)
	return add(&end)
}

// checkShards checks the streams' run records: one run, every shard once.
func checkShards(ins []*shardIn) error {
	first := &ins[0].run
	if first.Shards < 2 {
		return fmt.Errorf("%s: %w: it is a whole run, not a shard (give one stream to report it)", ins[0].name, ErrNotShards)
	}
	seen := make([]string, first.Shards)
	var errs []error
	for _, in := range ins {
		r := &in.run
		if d := runDiff(first, r); d != "" {
			errs = append(errs, fmt.Errorf("%s and %s: %w: %s", ins[0].name, in.name, ErrNotShards, d))
			continue
		}
		if r.Shard < 0 || r.Shard >= r.Shards {
			errs = append(errs, fmt.Errorf("%s: %w: shard %d of %d", in.name, ErrNotShards, r.Shard, r.Shards))
			continue
		}
		if seen[r.Shard] != "" {
			errs = append(errs, fmt.Errorf("shard %d of %d is given twice: %s and %s", r.Shard, r.Shards, seen[r.Shard], in.name))
			continue
		}
		seen[r.Shard] = in.name
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var missing []string
	for i, name := range seen {
		if name == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("run %s (%s · %s · seed %d) is split in %d shards: shard %s %s missing", first.RunID, first.Policy, first.Scenario, first.Seed, first.Shards,
			strings.Join(missing, ", "), map[bool]string{true: "is", false: "are"}[len(missing) == 1])
	}
	return nil
}

// runDiff says how two shards' run records show different runs, "" when
// they are shards of one.
func runDiff(a, b *simulator.Record) string {
	switch {
	case a.RunID != b.RunID:
		return fmt.Sprintf("run ids %s and %s", a.RunID, b.RunID)
	case a.Provider != b.Provider || a.Policy != b.Policy:
		return fmt.Sprintf("policies %s and %s", a.Policy, b.Policy)
	case a.Scenario != b.Scenario:
		return fmt.Sprintf("scenarios %s and %s", a.Scenario, b.Scenario)
	case a.Seed != b.Seed:
		return fmt.Sprintf("seeds %d and %d", a.Seed, b.Seed)
	case a.Events != b.Events || a.Tenants != b.Tenants || a.Shards != b.Shards:
		return fmt.Sprintf("%d events of %d tenants in %d shards, and %d of %d in %d", a.Events, a.Tenants, a.Shards, b.Events, b.Tenants, b.Shards)
	case a.DryRun != b.DryRun || a.EventType != b.EventType || a.Summary != b.Summary:
		return "different settings (dry run, event type or policy)"
	}
	return ""
}

// mergeEnds makes the shards' end records one: the run ends at the last
// shard's end, is interrupted if any shard was, and knows the effects if
// every shard did.
func mergeEnds(ends []simulator.Record) simulator.Record {
	end := ends[0]
	for _, e := range ends[1:] {
		if e.Time.After(end.Time) {
			end.Time = e.Time
		}
		end.Interrupted = end.Interrupted || e.Interrupted
		end.EffectsKnown = end.EffectsKnown && e.EffectsKnown
		end.EffectsUnsettled = end.EffectsUnsettled || e.EffectsUnsettled
		end.HandlersRunning += e.HandlersRunning
		end.SettleWait = max(end.SettleWait, e.SettleWait)
		if end.EffectsProblem == "" {
			end.EffectsProblem = e.EffectsProblem
		}
		if end.Error == "" {
			end.Error = e.Error
		}
	}
	return end
}

// shardIn is one shard's stream being read.
type shardIn struct {
	name string
	sc   *bufio.Scanner
	line int
	run  simulator.Record
	rec  simulator.Record
	done bool
}

// next reads the stream's next record into rec, skipping blank lines and
// kinds it does not know; done is set at the end.
func (in *shardIn) next() error {
	for in.sc.Scan() {
		in.line++
		b := bytes.TrimSpace(in.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		in.rec = simulator.Record{}
		if err := json.Unmarshal(b, &in.rec); err != nil {
			return fmt.Errorf("%s line %d: %w", in.name, in.line, err)
		}
		if !simulator.KnownKind(in.rec.Kind) {
			continue
		}
		if (in.rec.Kind == simulator.KindAttempt || in.rec.Outcome != "") && !in.rec.Outcome.Known() {
			return fmt.Errorf("%s line %d: unknown outcome %q", in.name, in.line, in.rec.Outcome)
		}
		if in.run.Kind != "" && (in.rec.Policy != in.run.Policy || in.rec.Scenario != in.run.Scenario || in.rec.Seed != in.run.Seed || in.rec.Kind == simulator.KindRun) {
			return fmt.Errorf("%s line %d: %w: the stream holds several runs; merge the shards of one run (one provider) at a time", in.name, in.line, ErrNotShards)
		}
		return nil
	}
	in.done = true
	if err := in.sc.Err(); err != nil {
		return fmt.Errorf("%s line %d: %w", in.name, in.line+1, err)
	}
	return nil
}

// body says the record is placed in the run's order by time and event.
func (in *shardIn) body() bool {
	switch in.rec.Kind {
	case simulator.KindAttempt, simulator.KindEvent, simulator.KindDisable, simulator.KindRestart:
		return true
	case simulator.KindAttack:
		return in.rec.Attempt > 0 // sent beside an attempt
	}
	return false
}

// tail says the record comes after the run's events.
func (in *shardIn) tail() bool {
	return in.rec.Kind == simulator.KindEffects || in.rec.Kind == simulator.KindEnd
}

// shardHeap orders the streams by their current record's place in the
// run: (time, a restart first, event), and by shard among equals.
type shardHeap []*shardIn

func (h shardHeap) Len() int { return len(h) }
func (h shardHeap) Less(i, j int) bool {
	a, b := &h[i].rec, &h[j].rec
	if !a.Time.Equal(b.Time) {
		return a.Time.Before(b.Time)
	}
	ra, rb := a.Kind == simulator.KindRestart, b.Kind == simulator.KindRestart
	if ra != rb {
		return ra
	}
	if a.Seq != b.Seq {
		return a.Seq < b.Seq
	}
	return h[i].run.Shard < h[j].run.Shard
}
func (h shardHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *shardHeap) Push(x any)   { *h = append(*h, x.(*shardIn)) }
func (h *shardHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
