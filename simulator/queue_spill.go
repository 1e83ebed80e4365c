package simulator

import (
	"encoding/binary"
	"fmt"
	"os"
	"time"
)

// chunkFile holds the chunks of the queue's lanes that were spilled to a
// temporary file: a lane is written at its tail and read at its head, so
// only those two chunks need to be in memory, and the chunks between them
// wait on disk. The file is made of fixed-size slots, reused once read, so
// it grows to the most chunks spilled at once, not to the attempts of the
// run; it is removed as soon as it is made (where the system allows an open
// file to be), and again when the queue is closed.
type chunkFile struct {
	f     *os.File
	dir   string  // where the file is made; "" for os.TempDir
	slots int32   // slots in the file
	free  []int32 // slots read back, to reuse
	// buf is one slot. Its length, fixed by the first write, is every
	// slot's: a queue carries names or not for its whole life.
	buf []byte
}

// chunkBytes is the size of a chunk's attempts on disk: each one's time
// and key; namesBytes that of their names, when carried, after them.
const (
	chunkBytes = chunkLen * 16
	namesBytes = chunkLen * nameBytes
	nameBytes  = 72 // an eventNames
)

// size is the size of a slot: a chunk's, with its names if it has them.
func slotSize(c *chunk) int {
	if c.names != nil {
		return chunkBytes + namesBytes
	}
	return chunkBytes
}

// write writes c to a free slot and returns it.
func (s *chunkFile) write(c *chunk) (int32, error) {
	if s.f == nil {
		f, err := os.CreateTemp(s.dir, "retrysim-queue-*")
		if err != nil {
			return 0, fmt.Errorf("simulator: spilling the queue: %w", err)
		}
		os.Remove(f.Name()) // gone from the directory, still open for us; where the system refuses, close removes it
		s.f = f
	}
	slot := s.slots
	if n := len(s.free); n > 0 {
		slot = s.free[n-1]
	}
	b := s.bytes(c)
	for i := range c.items {
		binary.LittleEndian.PutUint64(b[i*16:], uint64(c.items[i].at))
		binary.LittleEndian.PutUint64(b[i*16+8:], c.items[i].key)
	}
	if c.names != nil {
		nb := b[chunkBytes:]
		for i := range c.names {
			nm, o := &c.names[i], nb[i*nameBytes:]
			copy(o, nm.b[:])
			o[62], o[63] = nm.n, nm.split
			binary.LittleEndian.PutUint64(o[64:], uint64(nm.first))
		}
	}
	if _, err := s.f.WriteAt(b, int64(slot)*int64(len(b))); err != nil {
		return 0, fmt.Errorf("simulator: spilling the queue: %w", err)
	}
	if slot == s.slots {
		s.slots++
	} else {
		s.free = s.free[:len(s.free)-1]
	}
	return slot, nil
}

// read reads slot into c and frees the slot.
func (s *chunkFile) read(slot int32, c *chunk) error {
	b := s.bytes(c)
	if _, err := s.f.ReadAt(b, int64(slot)*int64(len(b))); err != nil {
		return fmt.Errorf("simulator: reading the queue back from its temporary file: %w", err)
	}
	for i := range c.items {
		c.items[i] = due{at: int64(binary.LittleEndian.Uint64(b[i*16:])), key: binary.LittleEndian.Uint64(b[i*16+8:])}
	}
	if c.names != nil {
		nb := b[chunkBytes:]
		for i := range c.names {
			nm, o := &c.names[i], nb[i*nameBytes:]
			copy(nm.b[:], o[:62])
			nm.n, nm.split = o[62], o[63]
			nm.first = time.Duration(binary.LittleEndian.Uint64(o[64:]))
		}
	}
	s.release(slot)
	return nil
}

// bytes returns the buffer a slot of c is written from and read into.
// Slots are at multiples of one size, so a chunk of another size than
// the first would overlap its neighbours: that is a bug, not a condition.
func (s *chunkFile) bytes(c *chunk) []byte {
	n := slotSize(c)
	if s.buf == nil {
		s.buf = make([]byte, n)
	}
	if len(s.buf) != n {
		panic("simulator: a queue spilled chunks of two sizes")
	}
	return s.buf
}

// release frees slot without reading it.
func (s *chunkFile) release(slot int32) { s.free = append(s.free, slot) }

// close closes and removes the file, if one was made.
func (s *chunkFile) close() error {
	if s.f == nil {
		return nil
	}
	name := s.f.Name()
	err := s.f.Close()
	s.f, s.slots, s.free, s.buf = nil, 0, nil, nil
	if rerr := os.Remove(name); rerr != nil && !os.IsNotExist(rerr) && err == nil {
		err = rerr
	}
	return err
}
