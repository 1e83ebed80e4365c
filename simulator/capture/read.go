package capture

import (
	"io"
	"path/filepath"

	"github.com/retrysim/retrysim/policies/boundedfile"
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
		data, err = boundedfile.Read("stdin", stdin, MaxSize, "a captured request")
	} else {
		data, err = boundedfile.Read(path, nil, MaxSize, "a captured request")
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
			return boundedfile.Read(name, nil, MaxSize, "a request body")
		},
	})
	return c, data, err
}
