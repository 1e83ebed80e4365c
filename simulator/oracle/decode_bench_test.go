package oracle_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"testing"

	"github.com/retrysim/retrysim/simulator/oracle"
)

// BenchmarkDecode60MB decodes a 60 MB answer (about 1.3 million ids) and
// reports the heap it keeps (the map) and the most the heap held while
// decoding, sampled after each GC, both against the answer's size.
func BenchmarkDecode60MB(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString(`{"effects": {`)
	for i := 0; buf.Len() < 60<<20; i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		fmt.Fprintf(&buf, `"evt_%032d": %d`, i, 1+i%3)
	}
	buf.WriteString(`}, "pending": 0}`)
	size := float64(buf.Len())
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	for b.Loop() {
		var before runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := oracle.Decode("GET /fx", &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(buf.Bytes()))})
		if err != nil {
			b.Fatal(err)
		}
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/size, "heap/answer")
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/size, "kept/answer")
		runtime.KeepAlive(r)
	}
}
