package report

import (
	"bufio"
	"io"
)

// bufferSize is the buffer every writer of a report writes through: a
// report reaches its file or pipe in writes of up to this size, not one
// per line or token, each a system call (a million-event HTML report once
// made 946,000 of them).
const bufferSize = 64 << 10

// buffered calls write with w buffered, and flushes what it left.
func buffered(w io.Writer, write func(io.Writer) error) error {
	bw := bufio.NewWriterSize(w, bufferSize)
	err := write(bw)
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	return err
}
