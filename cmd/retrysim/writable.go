package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// checkWritable checks, before anything is sent, that a file can be
// written at path: its directory exists and takes a new file, and path is
// not a directory. Output files are written at the end of a run, which is
// too late to find out.
func checkWritable(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory: name a file", path)
	}
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: directory %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("cannot write %s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	}
	f, err := os.CreateTemp(dir, ".retrysim-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: directory %s does not take new files (%w)", path, dir, errors.Unwrap(err))
	}
	name := f.Name()
	f.Close()
	if err := os.Remove(name); err != nil {
		return fmt.Errorf("cannot write %s: could not remove the check file %s: %w", path, name, err)
	}
	return nil
}
