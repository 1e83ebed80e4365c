package payload

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLoadRefusesAFileOverTheCap: a payload file larger than MaxFileSize
// is refused as this package's *Error, naming the file and the cap, and
// read no further than one byte past it.
func TestLoadRefusesAFileOverTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, make([]byte, MaxFileSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(wire(t, "stripe"), []string{path}, "", nil)
	var pe *Error
	if !errors.As(err, &pe) || !errors.Is(err, ErrInvalid) {
		t.Fatalf("err = %#v, want an *Error wrapping ErrInvalid", err)
	}
	if want := path + ": invalid payload: larger than 32 MiB"; err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
}
