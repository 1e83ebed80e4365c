package demo

import "os"

// RemoveTemp removes the temporary database the handler made (none when it
// was given one with WithDB), without waiting for the store to close: for
// a process about to exit at once, which would leave the directory behind.
func (h *Handler) RemoveTemp() error {
	if h.dir == "" {
		return nil
	}
	return os.RemoveAll(h.dir)
}
