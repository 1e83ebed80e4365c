// Package boundedfile reads a file whole, up to a cap. The files retrysim
// reads whole (a config file, a CA file, a payload, a captured request)
// are a few kilobytes in use, so a larger one (or /dev/zero) is a
// mistake, found after reading one byte past the cap rather than after
// filling memory. The config file, the CA file, the payloads and the
// captures each keep their own cap; this package is the one reader they
// share, and the one wording of "too large".
package boundedfile

import (
	"fmt"
	"io"
	"os"
)

// TooLargeError is Read's error for a file that holds more than Limit
// bytes.
type TooLargeError struct {
	// Name is the file's name as the caller gave it ("stdin" for a
	// reader).
	Name string
	// Limit is the cap, in bytes; messages say it in MiB.
	Limit int64
	// What says what the file should have been ("a config file"), for
	// the message; "" leaves it out.
	What string
}

// Error says "NAME is larger than N MiB: not WHAT" (without ": not WHAT"
// when What is empty).
func (e *TooLargeError) Error() string {
	msg := fmt.Sprintf("%s is larger than %d MiB", e.Name, e.Limit>>20)
	if e.What != "" {
		msg += ": not " + e.What
	}
	return msg
}

// Read reads the file name, or r when it is not nil (stdin, with name
// saying so), refusing it with a *TooLargeError when it holds more than
// limit bytes; what says what the file should have been, for that error.
// An error opening or reading the file is returned as it is.
func Read(name string, r io.Reader, limit int64, what string) ([]byte, error) {
	if r == nil {
		f, err := os.Open(name)
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
		return nil, &TooLargeError{Name: name, Limit: limit, What: what}
	}
	return data, nil
}
