package results_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/report/results"
	"github.com/retrysim/retrysim/simulator"
)

const secret = "whsec_StreamSecret_0123456789"

// records are a run of one attempt whose URL carries the secret, and the
// run's end record when ended.
func records(ended bool) []*simulator.Record {
	recs := []*simulator.Record{
		{Kind: simulator.KindRun, Provider: "stripe", Policy: "stripe", Scenario: "flaky-network", Seed: 7},
		{Kind: simulator.KindAttempt, Provider: "stripe", Policy: "stripe", Scenario: "flaky-network", Seed: 7, EventID: "evt_1", AttemptFacts: simulator.AttemptFacts{Outcome: simulator.ConnectionFailed}, Error: "dial http://127.0.0.1:1/hook?key=" + secret},
	}
	if ended {
		recs = append(recs, &simulator.Record{Kind: simulator.KindEnd, Provider: "stripe", Policy: "stripe", Scenario: "flaky-network", Seed: 7})
	}
	return recs
}

func open(t *testing.T, path string) *results.Stream {
	t.Helper()
	sec := &redact.Set{}
	sec.Add(secret)
	s, err := results.Open(path, nil, sec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func add(t *testing.T, s *results.Stream, recs []*simulator.Record) {
	t.Helper()
	for _, r := range recs {
		if err := s.Add(r); err != nil {
			t.Fatal(err)
		}
	}
}

// readBack reads the stream at path as 'retrysim report' does.
func readBack(t *testing.T, path string) []*simulator.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*simulator.Record
	if err := report.ReadJSONL(f, func(rec *simulator.Record) error { out = append(out, rec); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCommitWritesTheStream: nothing is at the path before Commit; after
// it the file holds every record, plain or compressed by its name, with
// the secret redacted; adding after Commit is refused.
func TestCommitWritesTheStream(t *testing.T) {
	for _, name := range []string{"r.jsonl", "r.jsonl.gz", "r.jsonl.zst"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), name)
			s := open(t, path)
			add(t, s, records(true))
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s exists before the commit: %v", path, err)
			}
			if err := s.Commit(); err != nil {
				t.Fatal(err)
			}
			got := readBack(t, path)
			if len(got) != 3 {
				t.Fatalf("read back %d records, want 3", len(got))
			}
			if strings.Contains(got[1].Error, secret) {
				t.Errorf("the secret was written: %s", got[1].Error)
			}
			if err := s.Add(records(false)[0]); !errors.Is(err, results.ErrClosed) {
				t.Errorf("Add after Commit: %v, want ErrClosed", err)
			}
		})
	}
}

// TestAbortLeavesNothing: an aborted stream leaves no file, not even a
// temporary one beside it.
func TestAbortLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "r.jsonl"))
	add(t, s, records(false))
	s.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("an aborted stream left %v", ents)
	}
}

// TestExitNowEndsOpenRuns: exiting at once keeps what was written and
// ends each run still open with an end record marked interrupted, and a
// run that ended gets no second end record.
func TestExitNowEndsOpenRuns(t *testing.T) {
	for _, ended := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "r.jsonl")
		s := open(t, path)
		add(t, s, records(ended))
		s.ExitNow()
		got := readBack(t, path)
		if len(got) != 3 {
			t.Fatalf("ended %v: read back %d records, want 3", ended, len(got))
		}
		if last := got[2]; last.Kind != simulator.KindEnd || last.Interrupted == ended {
			t.Errorf("ended %v: last record %+v, want an end record interrupted %v", ended, last, !ended)
		}
	}
}

// TestStdoutIsWrittenAsItIs: "-" writes to stdout, which the caller
// redacts: the stream writes the lines there at Commit.
func TestStdoutIsWrittenAsItIs(t *testing.T) {
	var buf bytes.Buffer
	s, err := results.Open("-", &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	add(t, s, records(true))
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\n"); n != 3 {
		t.Errorf("stdout got %d lines, want 3:\n%s", n, buf.String())
	}
}
