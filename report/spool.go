package report

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// ErrClosed is returned, wrapped, when timelines are read from or added to
// an Aggregator after Close.
var ErrClosed = errors.New("report: the aggregator is closed")

// spool keeps the per-event timelines in a temporary file, so a report that
// lists every event holds none of their attempts in memory: each attempt
// and attack record is appended as it comes, as a chunk that points back at
// the event's previous one, and the event's fate closes its chain. An event
// is read back by walking its chain from the last chunk. The file is made
// on the first record, in dir (os.TempDir when ""), and unlinked at once
// where the system allows it (so nothing is left behind even if the process
// is killed); close removes it in any case.
type spool struct {
	dir    string
	f      *os.File
	path   string // the file's name while it is still to be removed
	w      *bufio.Writer
	size   int64 // bytes written
	strs   spoolStrings
	enc    spoolEncoder
	closed bool

	// Read windows onto the file: an event's chunks lie in as many places
	// as it had attempts, and reading events in Seq order reads each place
	// forward, so one window per place makes the reads sequential.
	windows [spoolWindows]spoolWindow
	clock   uint64
	chain   []int64 // scratch: the chunks of the event being read
}

// spoolTail is what the spool needs of an event in flight: where its last
// chunk is, and the id and object its chunks refer to.
type spoolTail struct {
	last       int64 // the last chunk's offset + 1; 0 before the first
	id, object string
}

// Chunk kinds; chunkFirst marks an event's first chunk, which says the
// event's id and object.
const (
	chunkAttempt = iota
	chunkAttack
	chunkFate
	chunkFirst = 4
)

const (
	spoolWindows    = 32
	spoolWindowSize = 64 << 10
)

type spoolWindow struct {
	off  int64
	buf  []byte
	used uint64
}

func (s *spool) open() error {
	f, path, err := createTemp(s.dir, "retrysim-timeline-*.spool")
	if err != nil {
		return fmt.Errorf("report: spool for the per-event timeline: %w", err)
	}
	s.f, s.path = f, path
	s.w = bufio.NewWriterSize(f, 256<<10)
	return nil
}

// add appends rec (an attempt or attack record, by kind) to the chain of
// the event at seq.
func (s *spool) add(t *spoolTail, seq int, kind byte, rec *simulator.Record) error {
	return s.chunk(t, seq, kind, rec, "", time.Time{})
}

// end appends the event's fate to its chain and returns where the chain
// ends, for its index entry; at is the fate's time, kept for an event
// never attempted (EventTimeline.Due).
func (s *spool) end(t *spoolTail, seq int, fate string, at time.Time) (int64, error) {
	err := s.chunk(t, seq, chunkFate, nil, fate, at)
	return t.last, err
}

func (s *spool) chunk(t *spoolTail, seq int, kind byte, rec *simulator.Record, fate string, at time.Time) error {
	if s.closed {
		return ErrClosed
	}
	if s.f == nil {
		if err := s.open(); err != nil {
			return err
		}
	}
	e := &s.enc
	e.b, e.strs, e.seq = e.b[:0], &s.strs, seq
	off := s.size
	first := t.last == 0
	if first {
		if rec != nil {
			t.id, t.object = rec.EventID, rec.Object
		}
		kind |= chunkFirst // an event never attempted begins with its fate
	}
	e.id, e.object = t.id, t.object
	e.b = append(e.b, kind)
	if first {
		e.uint(0)
	} else {
		e.uint(uint64(off - (t.last - 1)))
	}
	if kind&chunkFirst != 0 {
		e.inline(t.id)
		e.inline(t.object)
	}
	if rec != nil {
		e.record(rec)
	} else {
		e.str(fate)
		if first {
			e.time(at) // an event never attempted: when it was due
		}
	}
	var hdr [binary.MaxVarintLen64]byte
	h := binary.PutUvarint(hdr[:], uint64(len(e.b)))
	if _, err := s.w.Write(hdr[:h]); err != nil {
		return fmt.Errorf("report: writing the timeline spool: %w", err)
	}
	if _, err := s.w.Write(e.b); err != nil {
		return fmt.Errorf("report: writing the timeline spool: %w", err)
	}
	s.size += int64(h + len(e.b))
	t.last = off + 1
	return nil
}

// get reads back the timeline of the event at seq whose chain ends at last
// (an offset + 1).
func (s *spool) get(seq int, last int64) (*EventTimeline, error) {
	if s.closed {
		return nil, ErrClosed
	}
	if s.w != nil && s.w.Buffered() > 0 {
		if err := s.w.Flush(); err != nil {
			return nil, fmt.Errorf("report: writing the timeline spool: %w", err)
		}
	}
	s.chain = s.chain[:0]
	for at := last; at != 0; {
		off := at - 1
		b, err := s.read(off)
		if err != nil {
			return nil, err
		}
		d := spoolDecoder{b: b[1:]}
		back := d.uint()
		if d.err != nil || back > uint64(off) {
			return nil, fmt.Errorf("%w: bad chain at offset %d", errSpoolCorrupt, off)
		}
		s.chain = append(s.chain, off)
		if back == 0 {
			break
		}
		at = off - int64(back) + 1
	}
	ev := &EventTimeline{Seq: seq}
	d := spoolDecoder{strs: &s.strs, seq: seq}
	for i := len(s.chain) - 1; i >= 0; i-- {
		b, err := s.read(s.chain[i])
		if err != nil {
			return nil, err
		}
		kind := b[0]
		d.b = b[1:]
		d.uint() // the back pointer
		if kind&chunkFirst != 0 {
			if i != len(s.chain)-1 {
				d.fail()
			}
			d.id, d.object = d.str(), d.str()
			ev.ID = d.id
		}
		switch kind &^ chunkFirst {
		case chunkAttempt:
			ev.Attempts = append(ev.Attempts, simulator.Record{})
			d.record(&ev.Attempts[len(ev.Attempts)-1])
		case chunkAttack:
			ev.Attacks = append(ev.Attacks, simulator.Record{})
			d.record(&ev.Attacks[len(ev.Attacks)-1])
		case chunkFate:
			ev.Fate = d.str()
			if kind&chunkFirst != 0 {
				ev.Due = d.time()
			}
		default:
			d.fail()
		}
		if d.err == nil && len(d.b) != 0 {
			d.fail()
		}
		if d.err != nil {
			return nil, fmt.Errorf("%w (chunk at offset %d)", d.err, s.chain[i])
		}
	}
	return ev, nil
}

// read returns the chunk at off, without its length.
func (s *spool) read(off int64) ([]byte, error) {
	if off < 0 || off >= s.size {
		return nil, fmt.Errorf("%w: no chunk at offset %d", errSpoolCorrupt, off)
	}
	head, err := s.bytes(off, min(binary.MaxVarintLen64, s.size-off))
	if err != nil {
		return nil, err
	}
	n, h := binary.Uvarint(head)
	if h <= 0 || n == 0 || n > uint64(s.size-off-int64(h)) {
		return nil, fmt.Errorf("%w: bad length at offset %d", errSpoolCorrupt, off)
	}
	return s.bytes(off+int64(h), int64(n))
}

// bytes returns the file's n bytes at off from a read window, filling the
// least recently used one when none holds them.
func (s *spool) bytes(off, n int64) ([]byte, error) {
	s.clock++
	lru := &s.windows[0]
	for i := range s.windows {
		w := &s.windows[i]
		if off >= w.off && off+n <= w.off+int64(len(w.buf)) {
			w.used = s.clock
			return w.buf[off-w.off : off-w.off+n], nil
		}
		if w.used < lru.used {
			lru = w
		}
	}
	size := max(spoolWindowSize, int(n))
	if cap(lru.buf) < size {
		lru.buf = make([]byte, size)
	}
	got, err := s.f.ReadAt(lru.buf[:size], off)
	if err != nil && !(errors.Is(err, io.EOF) && int64(got) >= n) {
		lru.buf = lru.buf[:0]
		return nil, fmt.Errorf("report: reading the timeline spool: %w", err)
	}
	lru.buf, lru.off, lru.used = lru.buf[:got], off, s.clock
	return lru.buf[:n], nil
}

// close closes and removes the file; it may be called more than once.
func (s *spool) close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	s.windows, s.strs, s.enc, s.chain = [spoolWindows]spoolWindow{}, spoolStrings{}, spoolEncoder{}, nil
	if s.f == nil {
		return nil
	}
	err := closeTemp(s.f, s.path)
	s.f, s.w = nil, nil
	if err != nil {
		return fmt.Errorf("report: removing the timeline spool: %w", err)
	}
	return nil
}
