package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Compression is how a results stream is compressed.
type Compression int

// The compressions of a results stream. A stream of JSON Lines compresses
// about tenfold: its keys and most of its values repeat on every line.
const (
	// Uncompressed: plain JSON Lines.
	Uncompressed Compression = iota
	// Gzip: a gzip stream (.gz), for tools that know nothing newer.
	Gzip
	// Zstd: a Zstandard stream (.zst), smaller and faster both ways.
	Zstd
)

// CompressionFor is the compression a results file's name asks for: .gz
// is gzip, .zst Zstandard, anything else none.
func CompressionFor(path string) Compression {
	switch {
	case strings.HasSuffix(path, ".gz"):
		return Gzip
	case strings.HasSuffix(path, ".zst"):
		return Zstd
	}
	return Uncompressed
}

// Compressor returns w with what is written to it compressed by c; Close
// ends the compressed stream (and leaves w open). Uncompressed returns w
// itself, with a Close that does nothing.
func (c Compression) Compressor(w io.Writer) (io.WriteCloser, error) {
	switch c {
	case Gzip:
		return gzip.NewWriterLevel(w, gzip.DefaultCompression)
	case Zstd:
		// One goroutine: the engine has the other cores' work to do.
		z, err := zstd.NewWriter(w, zstd.WithEncoderConcurrency(1), zstd.WithEncoderLevel(zstd.SpeedDefault))
		if err != nil {
			return nil, fmt.Errorf("zstd: %w", err)
		}
		return z, nil
	}
	return nopCloser{w}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// Magic numbers at the start of a compressed stream.
var (
	gzipMagic = []byte{0x1f, 0x8b}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
)

// decompressed returns r's stream uncompressed, recognising gzip and
// Zstandard by their first bytes (a JSON line starts with neither), so a
// compressed stream reads the same from a file of any name or from stdin.
// done releases what the decompressor holds.
func decompressed(r io.Reader) (out io.Reader, done func(), err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	head, _ := br.Peek(len(zstdMagic))
	switch {
	case bytes.HasPrefix(head, gzipMagic):
		g, err := gzip.NewReader(br)
		if err != nil {
			return nil, nil, fmt.Errorf("gzip: %w", err)
		}
		return g, func() { g.Close() }, nil
	case bytes.HasPrefix(head, zstdMagic):
		// Decoding runs a block ahead in a goroutine of its own, beside
		// the report's work on the records.
		z, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(2), zstd.WithDecoderLowmem(false))
		if err != nil {
			return nil, nil, fmt.Errorf("zstd: %w", err)
		}
		return z, z.Close, nil
	}
	return br, func() {}, nil
}
