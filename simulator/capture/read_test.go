package capture_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator/capture"
)

// TestRead: a curl command line's @file is read beside the capture, or
// beside the working directory from stdin; a capture past MaxSize is
// refused, naming what it should have been.
func TestRead(t *testing.T) {
	dir := t.TempDir()
	curl := "curl -X POST http://127.0.0.1/hook -H 'Content-Type: application/json' --data-binary @body.json\n"
	if err := os.WriteFile(filepath.Join(dir, "curl.txt"), []byte(curl), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "body.json"), []byte(`{"id":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	c, data, err := capture.Read(filepath.Join(dir, "curl.txt"), nil, 0)
	if err != nil || string(c.Body) != `{"id":1}` || string(data) != curl {
		t.Fatalf("Read: body %q, data %q, %v", c.Body, data, err)
	}
	if _, _, err := capture.Read("-", strings.NewReader(curl), 0); err == nil || !strings.Contains(err.Error(), "body.json") {
		t.Errorf("from stdin, @body.json is read from the working directory: %v", err)
	}
	big := bytes.Repeat([]byte("x"), capture.MaxSize+1)
	if _, _, err := capture.Read("-", bytes.NewReader(big), 0); err == nil || err.Error() != "stdin is larger than 32 MiB: not a captured request" {
		t.Errorf("a capture past MaxSize: %v", err)
	}
}
