package main

import (
	"fmt"
	"io"
	"os"
)

// Caps on the files a command reads whole: each is a few kilobytes in
// use, so a larger one (or /dev/zero) is a mistake, found after reading
// one byte past the cap rather than after filling memory.
const (
	maxConfigFile = 4 << 20
	maxCAFile     = 4 << 20
)

// readCapped reads the file at path, or r when it is not nil (stdin),
// refusing it when it holds more than limit bytes; what says what the
// file should have been, for the error.
func readCapped(path string, r io.Reader, limit int64, what string) ([]byte, error) {
	if r == nil {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d MiB: not %s", path, limit>>20, what)
	}
	return data, nil
}
