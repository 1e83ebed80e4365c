package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrClosed is returned, wrapped, when timelines are read from or added to
// an Aggregator after Close.
var ErrClosed = errors.New("report: the aggregator is closed")

// spool keeps finished events' timelines in a temporary file, so a report
// that lists every event holds only the events in flight in memory. The
// file is made on the first timeline put, in dir (os.TempDir when ""), and
// unlinked at once where the system allows it (so nothing is left behind
// even if the process is killed); Close removes it in any case.
type spool struct {
	dir    string
	f      *os.File
	path   string // the file's name while it is still to be removed
	w      *bufio.Writer
	size   int64 // bytes written
	enc    spoolEncoder
	dec    spoolDecoder
	closed bool

	// The read window: buf holds the file's bytes from off.
	buf []byte
	off int64
}

// spoolReadSize is how much the spool reads at once: events are read back
// in nearly the order they were written, so one read serves many.
const spoolReadSize = 256 << 10

func (s *spool) open() error {
	f, err := os.CreateTemp(s.dir, "retrysim-timeline-*.spool")
	if err != nil {
		return fmt.Errorf("report: spool for the per-event timeline: %w", err)
	}
	s.f, s.path = f, f.Name()
	if os.Remove(s.path) == nil {
		s.path = "" // gone from the directory; the data lives until Close
	}
	s.w = bufio.NewWriterSize(f, spoolReadSize)
	return nil
}

// put appends ev and returns its offset.
func (s *spool) put(ev *EventTimeline) (int64, error) {
	if s.closed {
		return 0, ErrClosed
	}
	if s.f == nil {
		if err := s.open(); err != nil {
			return 0, err
		}
	}
	s.enc.reset()
	s.enc.timeline(ev)
	var hdr [binary.MaxVarintLen64]byte
	h := binary.PutUvarint(hdr[:], uint64(len(s.enc.b)))
	off := s.size
	if _, err := s.w.Write(hdr[:h]); err != nil {
		return 0, fmt.Errorf("report: writing the timeline spool: %w", err)
	}
	if _, err := s.w.Write(s.enc.b); err != nil {
		return 0, fmt.Errorf("report: writing the timeline spool: %w", err)
	}
	s.size += int64(h + len(s.enc.b))
	return off, nil
}

// get reads back the timeline put at off.
func (s *spool) get(off int64) (*EventTimeline, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if s.f == nil || off < 0 || off >= s.size {
		return nil, fmt.Errorf("%w: no timeline at offset %d", errSpoolCorrupt, off)
	}
	if s.w.Buffered() > 0 {
		if err := s.w.Flush(); err != nil {
			return nil, fmt.Errorf("report: writing the timeline spool: %w", err)
		}
	}
	head, err := s.window(off, min(binary.MaxVarintLen64, s.size-off))
	if err != nil {
		return nil, err
	}
	n, h := binary.Uvarint(head)
	if h <= 0 || n > uint64(s.size-off-int64(h)) {
		return nil, fmt.Errorf("%w: bad length at offset %d", errSpoolCorrupt, off)
	}
	blob, err := s.window(off+int64(h), int64(n))
	if err != nil {
		return nil, err
	}
	s.dec = spoolDecoder{b: blob, strs: s.dec.strs[:0]}
	ev, err := s.dec.timeline()
	if err != nil {
		return nil, fmt.Errorf("%w (offset %d)", err, off)
	}
	return ev, nil
}

// window returns the file's n bytes at off, reading when they are not
// already in the read window.
func (s *spool) window(off, n int64) ([]byte, error) {
	if off >= s.off && off+n <= s.off+int64(len(s.buf)) {
		return s.buf[off-s.off : off-s.off+n], nil
	}
	size := max(spoolReadSize, int(n))
	if cap(s.buf) < size {
		s.buf = make([]byte, size)
	}
	s.buf = s.buf[:size]
	got, err := s.f.ReadAt(s.buf, off)
	if err != nil && !(errors.Is(err, io.EOF) && int64(got) >= n) {
		s.buf = s.buf[:0]
		return nil, fmt.Errorf("report: reading the timeline spool: %w", err)
	}
	s.buf, s.off = s.buf[:got], off
	return s.buf[:n], nil
}

// close closes and removes the file; it may be called more than once.
func (s *spool) close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.buf, s.enc, s.dec = nil, spoolEncoder{}, spoolDecoder{}
	if s.f == nil {
		return nil
	}
	err := s.f.Close()
	if s.path != "" {
		if rerr := os.Remove(s.path); rerr != nil && err == nil {
			err = rerr
		}
	}
	s.f, s.w = nil, nil
	if err != nil {
		return fmt.Errorf("report: removing the timeline spool: %w", err)
	}
	return nil
}
