package capture

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Read reads a captured delivery from the file at path, or from stdin
// when path is "-", and parses it (Parse, with entry as Options.Entry). A
// curl command line's @files are read relative to the capture's directory
// (the working directory for stdin). The capture and each @file are read
// up to MaxSize bytes: a larger one is refused. Read returns the bytes of
// the capture too, for a message about it (HAREntries).
func Read(path string, stdin io.Reader, entry int) (Request, []byte, error) {
	dir, data, err := filepath.Dir(path), []byte(nil), error(nil)
	if path == "-" {
		dir = "."
		data, err = readCapped("stdin", stdin, "a captured request")
	} else {
		data, err = readCapped(path, nil, "a captured request")
	}
	if err != nil {
		return Request{}, nil, err
	}
	c, err := Parse(data, Options{
		Entry: entry,
		ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return readCapped(name, nil, "a request body")
		},
	})
	return c, data, err
}

// readCapped reads the file name, or r when it is not nil, refusing it
// when it holds more than MaxSize bytes; what says what the file should
// have been.
func readCapped(name string, r io.Reader, what string) ([]byte, error) {
	if r == nil {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("%s is larger than %d MiB: not %s", name, MaxSize>>20, what)
	}
	return data, nil
}
