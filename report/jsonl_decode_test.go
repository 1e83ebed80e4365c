package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// TestDecoderMatchesEncodingJSON: every line of the test streams, and lines
// bent the ways a hand-edited or hostile stream is, decode to what
// encoding/json makes of them, errors included.
func TestDecoderMatchesEncodingJSON(t *testing.T) {
	var lines [][]byte
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, MaxLine)
		for sc.Scan() {
			if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 {
				lines = append(lines, bytes.Clone(l))
			}
		}
	}
	if len(lines) < 50 {
		t.Fatalf("only %d lines in testdata", len(lines))
	}
	bent := []string{
		`{}`, `{ "kind" : "attempt" , "seq" : 3 }`, `{"Kind":"attempt"}`, `{"kind":null}`, `{"seq":1.0}`, `{"seq":1e2}`,
		`{"seq":-0}`, `{"seq":01}`, `{"seq":99999999999999999999}`, `{"seed":-1}`, `{"at_seconds":-0}`, `{"at_seconds":1e400}`,
		`{"at_seconds":.5}`, `{"at_seconds":1.}`, `{"latency_ms":12.345678901234567890}`, `{"error":"a\"b\\c\u00e9\ud83d\ude00"}`,
		"{\"error\":\"raw \xff bytes\"}", "{\"error\":\"tab\there\"}", `{"error":"x"}x`, `{"error":"x",}`, `{"error":"x"`,
		`{"reached_handler":tru}`, `{"reached_handler":truex}`, `{"time":"2026-01-01T00:00:00+01:00"}`, `{"time":"yesterday"}`,
		`{"start":"2026-01-01T00:00:00Z","start":"2027-01-01T00:00:00Z"}`, `{"schedule_offsets_seconds":[]}`,
		`{"schedule_offsets_seconds":[1,2,]}`, `{"outage_windows_seconds":[[1,2],[3]]}`, `{"outage_windows_seconds":[[1,2,3]]}`,
		`{"outage_windows_seconds":[[ 1 , 2 ] ]}`, `{"kind":"attempt","unknown":{"a":[1,2]}}`, `{"k\u0069nd":"attempt"}`,
		`[]`, `null`, `{"seq":2,"seq":3}`, `{"n":9223372036854775807}`, `{"n":9223372036854775808}`,
	}
	for _, l := range bent {
		lines = append(lines, []byte(l))
	}
	d := simulator.NewRecordDecoder()
	for _, l := range lines {
		var got simulator.Record
		err := d.Decode(l, &got)
		var want simulator.Record
		wantErr := json.Unmarshal(l, &want)
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Errorf("%s: error %v, encoding/json's %v", l, err, wantErr)
			continue
		}
		if err == nil {
			sameAsJSON(t, l, &got)
		}
	}
}

// sameAsJSON fails t unless got is what encoding/json decodes line to.
func sameAsJSON(t *testing.T, line []byte, got *simulator.Record) {
	t.Helper()
	var want simulator.Record
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", line, *got, want)
	}
}

// FuzzRecordDecoder: whatever a line holds, the decoder and encoding/json
// agree on it.
func FuzzRecordDecoder(f *testing.F) {
	f.Add([]byte(`{"kind":"attempt","provider":"stripe","seq":3,"time":"2026-01-01T00:00:00Z","at_seconds":297.5,"reached_handler":true,"error":"x\u0007"}`))
	f.Add([]byte(`{"kind":"run","schedule_offsets_seconds":[0,297],"outage_windows_seconds":[[1,2]],"start":"2026-01-01T00:00:00Z"}`))
	d := simulator.NewRecordDecoder()
	f.Fuzz(func(t *testing.T, line []byte) {
		var got, want simulator.Record
		err := d.Decode(line, &got)
		wantErr := json.Unmarshal(line, &want)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", line, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	})
}
