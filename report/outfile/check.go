package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CheckWritable checks, before anything is sent, that a file can be
// written at path: what stands there is a regular file, a device or a
// FIFO (symlinks followed; see Create), or nothing, and the
// directory takes a new file. Output files are written at the end of a
// run, which is too late to find out.
func CheckWritable(path string) error {
	t, err := resolve(path)
	if err != nil {
		return err
	}
	if t.direct {
		return nil // written in place: no new file is made
	}
	if err := t.readOnly(path); err != nil {
		return err
	}
	dir := filepath.Dir(t.path)
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

// sameFile reports whether paths a and b name one file (symlinks
// followed), or would once written. Devices are exempt: two outputs to
// /dev/null lose nothing.
func sameFile(a, b string) bool {
	ta, erra := resolve(a)
	tb, errb := resolve(b)
	if erra != nil || errb != nil || ta.direct || tb.direct {
		return false
	}
	if ta.exists && tb.exists {
		fa, err1 := os.Stat(ta.path)
		fb, err2 := os.Stat(tb.path)
		return err1 == nil && err2 == nil && os.SameFile(fa, fb)
	}
	pa, err1 := filepath.Abs(ta.path)
	pb, err2 := filepath.Abs(tb.path)
	return err1 == nil && err2 == nil && pa == pb
}

// Named is a file a command reads or writes, with the flag that names
// it.
type Named struct{ Flag, Path string }

// CheckDistinct refuses an output that is also another output (one would
// silently lose) or an input (it would be overwritten).
func CheckDistinct(outputs, inputs []Named) []error {
	var errs []error
	for i, o := range outputs {
		if o.Path == "" || o.Path == "-" {
			continue
		}
		for _, p := range outputs[i+1:] {
			if p.Path != "" && p.Path != "-" && sameFile(o.Path, p.Path) {
				errs = append(errs, fmt.Errorf("%s and %s both name %s: one would overwrite the other; give each its own file", o.Flag, p.Flag, o.Path))
			}
		}
		for _, in := range inputs {
			if in.Path != "" && in.Path != "-" && sameFile(o.Path, in.Path) {
				errs = append(errs, fmt.Errorf("%s %s is also %s: writing it would destroy the input; name another file", o.Flag, o.Path, in.Flag))
			}
		}
	}
	return errs
}
