package main

import (
	"os"
	"path/filepath"
	"sync"
)

// atomicFile is an output file written under a temporary name beside its
// path and renamed into place by commit, so that whoever reads path sees the
// previous file or the complete new one, never half of one: a results
// stream is always whole JSON Lines, even after an interrupt.
type atomicFile struct {
	*os.File
	path string
}

// pendingFiles are the temporary files not yet committed or aborted; a
// second Ctrl-C removes them before exiting.
var pendingFiles sync.Map // temporary name → struct{}

// createAtomic starts writing the file at path.
func createAtomic(path string) (*atomicFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	pendingFiles.Store(f.Name(), struct{}{})
	return &atomicFile{File: f, path: path}, nil
}

// commit makes the file durable and moves it into place. After a failed
// commit the temporary file is gone and path is untouched.
func (a *atomicFile) commit() error {
	tmp := a.Name()
	defer pendingFiles.Delete(tmp)
	err := a.Sync()
	if cerr := a.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file private; an output file is as readable
		// as any file the user creates.
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, a.path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}

// abort removes the temporary file; after commit it does nothing.
func (a *atomicFile) abort() {
	tmp := a.Name()
	if _, pending := pendingFiles.LoadAndDelete(tmp); pending {
		a.Close()
		os.Remove(tmp)
	}
}

// removePending removes every temporary file not yet committed: the last
// thing done before exiting at once on a second interrupt.
func removePending() {
	pendingFiles.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}
