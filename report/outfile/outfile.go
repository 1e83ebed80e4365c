// Package outfile writes retrysim's output files whole or not at all: a
// file is written under a temporary name beside its path and renamed into
// place when complete, and the checks a command makes before a run (can
// this path be written, do two flags name one file) are made here.
package outfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// File is an output file. A regular file (or a new one) is written
// under a temporary name beside its path and renamed into place by Commit,
// so that whoever reads path sees the previous file or the complete new
// one, never half of one: a results stream is always whole JSON Lines, even
// after an interrupt. A symlink is written through to its target, as a
// shell's > would; a device or a FIFO is written directly (renaming over it
// would replace /dev/null with a regular file).
type File struct {
	*os.File
	path string // where the output lands: the path, its symlinks followed
	tmp  string // the temporary name; "" when written directly
}

// pending are the temporary files not yet committed or aborted; a
// second Ctrl-C removes them before exiting.
var pending sync.Map // temporary name → struct{}

// target is what stands at an output path.
type target struct {
	path   string      // the path with its symlinks followed
	exists bool        // something stands there
	direct bool        // a device or a FIFO: written in place
	mode   fs.FileMode // an existing regular file's permissions
}

// readOnly refuses to replace a file nobody may write (chmod a-w), as cp
// refuses to overwrite one: a replace by rename would ignore its mode.
func (t target) readOnly(path string) error {
	if t.exists && !t.direct && t.mode&0o222 == 0 {
		return fmt.Errorf("cannot write %s: it is read-only (%#o); make it writable or remove it first", path, t.mode)
	}
	return nil
}

// maxLinks bounds the symlinks followed to an output's target, as the
// kernel does (ELOOP).
const maxLinks = 40

// resolve follows path's symlinks and says what stands at the end:
// nothing (a new file), a regular file, a device or a FIFO. A directory,
// a socket or anything else is refused.
func resolve(path string) (target, error) {
	cur := path
	for range maxLinks {
		fi, err := os.Lstat(cur)
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			// Nothing there (or a file where a directory should be, which
			// CheckWritable names).
			return target{path: cur}, nil
		case err != nil:
			return target{}, err
		case fi.Mode()&fs.ModeSymlink != 0:
			link, err := os.Readlink(cur)
			if err != nil {
				return target{}, err
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(filepath.Dir(cur), link)
			}
			cur = link
			continue
		case fi.Mode().IsRegular():
			return target{path: cur, exists: true, mode: fi.Mode().Perm()}, nil
		case fi.IsDir():
			return target{}, fmt.Errorf("%s is a directory: name a file", path)
		case fi.Mode()&(fs.ModeDevice|fs.ModeNamedPipe) != 0:
			return target{path: cur, exists: true, direct: true}, nil
		default:
			return target{}, fmt.Errorf("cannot write %s: it is a %s, not a file, a device or a FIFO", path, fileKind(fi.Mode()))
		}
	}
	return target{}, fmt.Errorf("cannot write %s: more than %d symbolic links to follow", path, maxLinks)
}

// fileKind names what a mode says a file is, for an error.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeIrregular != 0:
		return "irregular file"
	}
	return m.Type().String()
}

// tempPrefix is the start of every temporary name beside path; the
// process id follows it, so that a later run can tell its own stale
// temporary files (left by kill -9) from another live run's.
func tempPrefix(target string) string {
	return filepath.Join(filepath.Dir(target), "."+filepath.Base(target)+".tmp-")
}

// Create starts writing the file at path.
func Create(path string) (*File, error) {
	t, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if t.direct {
		// No O_CREATE: it exists; no O_TRUNC: a FIFO or a device has
		// nothing to truncate.
		f, err := os.OpenFile(t.path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{File: f, path: t.path}, nil
	}
	if err := t.readOnly(path); err != nil {
		return nil, err
	}
	removeStale(t.path)
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := tempPrefix(t.path) + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(rnd[:])
	// 0666 less the umask, as any file the user creates; a file replaced
	// keeps its own permissions.
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return nil, err
	}
	if t.exists {
		if err := f.Chmod(t.mode); err != nil {
			f.Close()
			os.Remove(tmp)
			return nil, err
		}
	}
	pending.Store(tmp, struct{}{})
	return &File{File: f, path: t.path, tmp: tmp}, nil
}

// removeStale removes the temporary files beside target that a retrysim
// process no longer running left behind (killed with SIGKILL, which
// leaves no chance to clean up).
func removeStale(target string) {
	prefix := tempPrefix(target)
	names, _ := filepath.Glob(globEscape(prefix) + "*")
	for _, n := range names {
		pid, _, ok := strings.Cut(strings.TrimPrefix(n, prefix), "-")
		if p, err := strconv.Atoi(pid); ok && err == nil && p != os.Getpid() && !processAlive(p) {
			os.Remove(n)
		}
	}
}

// globEscape escapes the characters filepath.Glob treats specially.
func globEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `*`, `\*`, `?`, `\?`, `[`, `\[`).Replace(s)
}

// Commit makes the file durable and moves it into place. After a failed
// Commit the temporary file is gone and path is untouched.
func (a *File) Commit() error {
	if a.tmp == "" {
		return a.Close()
	}
	tmp := a.tmp
	defer pending.Delete(tmp)
	err := a.Sync()
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, a.path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// Abort removes the temporary file; after Commit it does nothing. A file
// written directly is closed.
func (a *File) Abort() {
	if a.tmp == "" {
		a.Close()
		return
	}
	if _, pending := pending.LoadAndDelete(a.tmp); pending {
		a.Close()
		os.Remove(a.tmp)
	}
}

// RemovePending removes every temporary file not yet committed: the last
// thing done before exiting at once on a second interrupt.
func RemovePending() {
	pending.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}

// Write writes the file at path with fill, whole or not at all: fill
// streams into a temporary file beside it, renamed over path only when
// complete, so a failed render or an interrupt leaves no half-written file
// behind and an existing file stays as it was until the new one is
// complete.
func Write(path string, fill func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := fill(f); err != nil {
		return err
	}
	return f.Commit()
}
