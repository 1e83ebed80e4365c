package scenarios

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"time"
)

// FuzzDecode: no scenario file makes Decode panic; an error is ErrInvalid
// and names the file; a scenario that decodes can decide any attempt
// without panicking.
func FuzzDecode(f *testing.F) {
	files, err := fs.Glob(catalogueFS, "catalogue/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := catalogueFS.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Decode("mine.yaml", data)
		if err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v is not ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), "mine.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if s.Name == "" {
			t.Fatal("scenario decoded without a name")
		}
		for i, f := range s.Faults {
			if !(f.Probability >= 0 && f.Probability <= 1) {
				t.Fatalf("fault %d decoded with probability %g", i+1, f.Probability)
			}
		}
		for _, at := range []time.Duration{0, time.Hour, 72 * time.Hour} {
			for attempt := 1; attempt <= 3; attempt++ {
				a := s.Decide(1, 7, attempt, at, 10*time.Second)
				if a.Latency < 0 {
					t.Fatalf("attempt %d at %s: negative latency %s", attempt, at, a.Latency)
				}
			}
		}
	})
}
