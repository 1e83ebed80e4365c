package simulator

import (
	"fmt"
	"os"
	"unsafe"
)

// chunkFile holds the chunks of the queue's lanes that were spilled to a
// temporary file: a lane is written at its tail and read at its head, so
// only those two chunks need to be in memory, and the chunks between them
// wait on disk. The file is made of fixed-size slots, reused once read, so
// it grows to the most chunks spilled at once, not to the attempts of the
// run; it is removed as soon as it is made (where the system allows an open
// file to be), and again when the queue is closed.
//
// A slot holds a chunk's memory as it is, its attempts and then their
// names (when carried): the file is this process's alone, written and
// read back by the same code on the same machine, so no encoding is
// needed, and neither due nor eventNames holds a pointer. Encoding each
// attempt on the way out and decoding it on the way in was as much CPU
// as the system calls that move the bytes.
type chunkFile struct {
	f     *os.File
	dir   string  // where the file is made; "" for os.TempDir
	slots int32   // slots in the file
	free  []int32 // slots read back, to reuse
	// size is every slot's size, fixed by the first write: a queue
	// carries names or not for its whole life.
	size int64
}

// chunkBytes is the size of a chunk's attempts on disk; namesBytes that
// of their names, when carried, after them.
const (
	chunkBytes = chunkLen * int64(unsafe.Sizeof(due{}))
	namesBytes = chunkLen * int64(unsafe.Sizeof(eventNames{}))
)

// slotSize is the size of a slot: a chunk's, with its names if it has them.
func slotSize(c *chunk) int64 {
	if c.names != nil {
		return chunkBytes + namesBytes
	}
	return chunkBytes
}

// itemBytes and nameBytes are c's attempts and names as the bytes of
// their memory.
func itemBytes(c *chunk) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&c.items[0])), chunkBytes)
}

func nameBytes(c *chunk) []byte {
	return unsafe.Slice((*byte)(unsafe.Pointer(&c.names[0])), namesBytes)
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
	at := s.offset(slot, c)
	_, err := s.f.WriteAt(itemBytes(c), at)
	if err == nil && c.names != nil {
		_, err = s.f.WriteAt(nameBytes(c), at+chunkBytes)
	}
	if err != nil {
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
	at := s.offset(slot, c)
	_, err := s.f.ReadAt(itemBytes(c), at)
	if err == nil && c.names != nil {
		_, err = s.f.ReadAt(nameBytes(c), at+chunkBytes)
	}
	if err != nil {
		return fmt.Errorf("simulator: reading the queue back from its temporary file: %w", err)
	}
	s.release(slot)
	return nil
}

// offset is where slot begins in the file for a chunk like c. Slots are
// at multiples of one size, so a chunk of another size than the first
// would overlap its neighbours: that is a bug, not a condition.
func (s *chunkFile) offset(slot int32, c *chunk) int64 {
	n := slotSize(c)
	if s.size == 0 {
		s.size = n
	}
	if s.size != n {
		panic("simulator: a queue spilled chunks of two sizes")
	}
	return int64(slot) * n
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
	s.f, s.slots, s.free, s.size = nil, 0, nil, 0
	if rerr := os.Remove(name); rerr != nil && !os.IsNotExist(rerr) && err == nil {
		err = rerr
	}
	return err
}
