package report

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// readStream folds a results stream into an aggregator's runs.
func readStream(t *testing.T, data []byte) ([]*Summary, error) {
	t.Helper()
	agg := NewAggregator(WithTimeline(3))
	t.Cleanup(func() { agg.Close() })
	err := ReadJSONL(bytes.NewReader(data), agg.Add)
	return agg.Runs(), err
}

func goodStream(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/naive-flaky.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCutStreamIsIncomplete: a stream without its end record (head -n5)
// is not a whole run: the run says so, and every gate that would pass
// cannot be vouched for.
func TestCutStreamIsIncomplete(t *testing.T) {
	lines := strings.SplitAfter(string(goodStream(t)), "\n")
	runs, err := readStream(t, []byte(strings.Join(lines[:5], "")))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || !runs[0].Incomplete {
		t.Fatalf("a cut stream read as complete")
	}
	var text strings.Builder
	if err := WriteText(&text, &Report{Runs: runs}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "INCOMPLETE: the results stream stops before this run's end record") {
		t.Errorf("the report does not say the stream was cut:\n%s", text.String())
	}
	for _, g := range CheckGates(runs, []Gate{GateLostEvents, GateRedirects}, GateOptions{}) {
		if !g.Failed() {
			t.Errorf("gate %s passed on a cut stream: %s", g.Gate, g.Message)
		}
	}
	whole, err := readStream(t, goodStream(t))
	if err != nil || whole[0].Incomplete {
		t.Errorf("a whole stream read as incomplete (%v)", err)
	}
}

// TestDoubledStreamRefused: the same stream twice over is not twice the
// events.
func TestDoubledStreamRefused(t *testing.T) {
	b := goodStream(t)
	_, err := readStream(t, append(append([]byte{}, b...), b...))
	if err == nil || !strings.Contains(err.Error(), "line 125: a second run record for stripe · flaky-network · seed 1") {
		t.Fatalf("a doubled stream: %v, want line 125 named as the second run record", err)
	}
}

// TestStreamReaderSkipsAndRefuses: blank lines and unknown kinds are
// skipped, as docs/formats.md promises; an unknown outcome and an over-long
// line are errors naming their line.
func TestStreamReaderSkipsAndRefuses(t *testing.T) {
	lines := strings.SplitAfter(string(goodStream(t)), "\n")
	padded := lines[0] + "\n   \r\n" + `{"kind":"forecast","provider":"stripe"}` + "\n" + strings.Join(lines[1:], "")
	runs, err := readStream(t, []byte(padded))
	if err != nil {
		t.Fatalf("blank lines and an unknown kind: %v", err)
	}
	want, _ := readStream(t, goodStream(t))
	if runs[0].Attempts != want[0].Attempts || runs[0].Incomplete {
		t.Errorf("read %d attempts, want %d", runs[0].Attempts, want[0].Attempts)
	}

	bad := strings.Replace(string(goodStream(t)), `"outcome":"delivered"`, `"outcome":"teleported"`, 1)
	_, err = readStream(t, []byte(bad))
	if err == nil || !strings.Contains(err.Error(), `unknown outcome "teleported"`) || !strings.HasPrefix(err.Error(), "line ") {
		t.Errorf("an unknown outcome: %v", err)
	}

	long := lines[0] + strings.Repeat("x", MaxLine+1) + "\n"
	err = ReadJSONL(strings.NewReader(long), func(*simulator.Record) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "line 2: longer than 16 MiB") {
		t.Errorf("an over-long line: %v", err)
	}
}
