package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// TestDecoderKnowsEveryField: a record with every field set decodes the
// quick way to what encoding/json makes of it, so a field added to the
// record of a type the decoder does not know fails here, not as a slow
// stream.
func TestDecoderKnowsEveryField(t *testing.T) {
	var rec simulator.Record
	v := reflect.ValueOf(&rec).Elem()
	start := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(start.Add(time.Duration(i) * time.Second)))
		case f.Kind() == reflect.Pointer && f.Type().Elem() == timeType:
			t := start.Add(time.Duration(i) * time.Hour).In(time.FixedZone("", 3600))
			f.Set(reflect.ValueOf(&t))
		case f.Kind() == reflect.String:
			f.SetString("text " + v.Type().Field(i).Name)
		case f.Kind() == reflect.Int:
			f.SetInt(int64(i + 1))
		case f.Kind() == reflect.Uint64:
			f.SetUint(1<<63 + uint64(i))
		case f.Kind() == reflect.Float64:
			f.SetFloat(float64(i) + 0.125)
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Type() == reflect.TypeFor[[]float64]():
			f.Set(reflect.ValueOf([]float64{0, 297, 1e-7, 259200.5}))
		case f.Type() == reflect.TypeFor[[][2]float64]():
			f.Set(reflect.ValueOf([][2]float64{{1, 2}, {3.5, -4}}))
		default:
			t.Fatalf("Record.%s: a field of type %s the test (and so the decoder) does not know", v.Type().Field(i).Name, f.Type())
		}
	}
	line, err := json.Marshal(&rec)
	if err != nil {
		t.Fatal(err)
	}
	var got simulator.Record
	if !newRecordDecoder().fast(line, &got) {
		t.Fatalf("the decoder leaves a record of every field to encoding/json:\n%s", line)
	}
	sameAsJSON(t, line, &got)
}

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
	d := newRecordDecoder()
	for _, l := range lines {
		var got simulator.Record
		err := d.decode(l, &got)
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
	d := newRecordDecoder()
	f.Fuzz(func(t *testing.T, line []byte) {
		var got, want simulator.Record
		err := d.decode(line, &got)
		wantErr := json.Unmarshal(line, &want)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, encoding/json's %v", line, err, wantErr)
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	})
}
