package boundedfile_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/boundedfile"
)

func TestReadTakesAFileUpToItsCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "at-cap.yaml")
	want := bytes.Repeat([]byte("x"), 1<<20)
	if err := os.WriteFile(path, want, 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := boundedfile.Read(path, nil, 1<<20, "a config file")
	if err != nil {
		t.Fatalf("a file of exactly the cap: %v", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read %d bytes, want the file's %d", len(got), len(want))
	}
}

func TestReadRefusesAFileOverItsCap(t *testing.T) {
	for _, tc := range []struct {
		what, want string
	}{
		{"a config file", "big.yaml is larger than 1 MiB: not a config file"},
		{"", "big.yaml is larger than 1 MiB"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			dir := t.TempDir()
			t.Chdir(dir)
			if err := os.WriteFile("big.yaml", bytes.Repeat([]byte("x"), 1<<20+1), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := boundedfile.Read("big.yaml", nil, 1<<20, tc.what)
			var tl *boundedfile.TooLargeError
			if !errors.As(err, &tl) || tl.Limit != 1<<20 || tl.Name != "big.yaml" {
				t.Fatalf("err = %#v, want a *TooLargeError for big.yaml at 1 MiB", err)
			}
			if err.Error() != tc.want {
				t.Fatalf("message %q, want %q", err, tc.want)
			}
		})
	}
}

func TestReadReadsAReaderUnderTheNameGiven(t *testing.T) {
	got, err := boundedfile.Read("stdin", strings.NewReader("POST / HTTP/1.1\r\n\r\n"), 1<<20, "a captured request")
	if err != nil || string(got) != "POST / HTTP/1.1\r\n\r\n" {
		t.Fatalf("got %q, %v", got, err)
	}
	// An endless reader stops one byte past the cap, named as given.
	_, err = boundedfile.Read("stdin", zeros{}, 1<<20, "a captured request")
	if err == nil || err.Error() != "stdin is larger than 1 MiB: not a captured request" {
		t.Fatalf("endless stdin: %v", err)
	}
}

func TestReadReturnsTheOpenErrorAsItIs(t *testing.T) {
	_, err := boundedfile.Read(filepath.Join(t.TempDir(), "missing.pem"), nil, 1<<20, "a PEM certificate file")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want the open's not-exist error", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %#v, want the *fs.PathError naming the file", err)
	}
}

// zeros is an endless reader, as /dev/zero is.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
