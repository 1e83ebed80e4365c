package report

import (
	"bytes"
	"os"
	"reflect"
	"testing"

	"github.com/retrysim/retrysim/simulator"
)

// TestCompressedStreamsReadBack: a stream written through each
// compression reads back to the same records as the plain one.
func TestCompressedStreamsReadBack(t *testing.T) {
	plain, err := os.ReadFile("testdata/naive-flaky.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	read := func(b []byte) []simulator.Record {
		var recs []simulator.Record
		if err := ReadJSONL(bytes.NewReader(b), func(r *simulator.Record) error { recs = append(recs, *r); return nil }); err != nil {
			t.Fatal(err)
		}
		return recs
	}
	want := read(plain)
	for _, name := range []string{"r.jsonl", "r.jsonl.gz", "r.jsonl.zst"} {
		var buf bytes.Buffer
		w, err := CompressionFor(name).Compressor(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(plain); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if CompressionFor(name) != Uncompressed && bytes.Equal(buf.Bytes(), plain) {
			t.Errorf("%s: not compressed", name)
		}
		if got := read(buf.Bytes()); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %d records read back, want the plain stream's %d", name, len(got), len(want))
		}
	}
}
