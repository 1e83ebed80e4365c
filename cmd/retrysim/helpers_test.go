package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// built is the plain retrysim binary the race detector's build of the
// tests runs: built once, on first use, and removed when the tests end (see
// TestMain).
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// buildBinary returns a retrysim binary for tests that run it as a process
// of its own (to send it signals, to measure it, to run the help's
// examples). Every caller runs the same binary, so none may change it.
//
// Without the race detector it is this test binary's copy that testscript
// put in $PATH as "retrysim", which runs main itself (see TestMain): the
// command as installed, with nothing more to build or link. Under the race
// detector that copy is a race build, minutes slower on the examples'
// 100,000 events, so a plain binary is built once with go build.
func buildBinary(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the binary as a process of its own")
	}
	if raceSlowdown == 1 {
		bin, err := exec.LookPath("retrysim")
		if err != nil {
			t.Fatal(err)
		}
		return bin
	}
	built.once.Do(build)
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// pkgDir is this package's directory, the tests' working directory as
// they start: some tests change it for a while, and a build in the
// background must not follow.
var pkgDir, pkgDirErr = os.Getwd()

// build builds the binary buildBinary returns.
func build() {
	if pkgDirErr != nil {
		built.err = pkgDirErr
		return
	}
	dir, err := os.MkdirTemp("", "retrysim-test-bin")
	if err != nil {
		built.err = err
		return
	}
	built.dir = dir
	bin := filepath.Join(dir, "retrysim")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = pkgDir
	if out, err := cmd.CombinedOutput(); err != nil {
		built.err = fmt.Errorf("go build: %v\n%s", err, out)
		return
	}
	built.path = bin
}

// buildAhead starts building the binary in the background, so that the
// first test to need it does not wait for the whole build.
func buildAhead() {
	go built.once.Do(build)
}

// removeBinary removes the binary buildBinary built, if it did, once a
// build under way has ended.
func removeBinary() {
	built.once.Do(func() {})
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// startBinary starts the built binary with args in a directory of its own
// (setup may change the command first), killed when the test ends, and
// returns it with its stderr, line by line, and its stdout.
func startBinary(t *testing.T, bin string, args []string, setup ...func(*exec.Cmd)) (*exec.Cmd, <-chan string, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = t.TempDir()
	for _, f := range setup {
		f(cmd)
	}
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	errPipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, lines(errPipe), &stdout
}

// gate is a loopback handler that holds every request until released,
// telling the test when each one arrives.
type gate struct {
	url      string
	arrived  chan struct{}
	release  chan struct{}
	released sync.Once
}

func newGate(t *testing.T) *gate {
	t.Helper()
	g := &gate{arrived: make(chan struct{}, 1000), release: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		g.arrived <- struct{}{}
		select {
		case <-g.release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { g.open(); srv.Close() })
	g.url = srv.URL + "/webhooks/stripe"
	return g
}

// open lets every held and later request through.
func (g *gate) open() { g.released.Do(func() { close(g.release) }) }

// waitFor fails t unless ch delivers within limit: a guard against a hung
// process, not a measure of time.
func waitFor[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(60 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
		panic("unreachable")
	}
}

// lines sends each line read from r to the returned channel, and closes it
// at the end of r.
func lines(r io.Reader) <-chan string {
	ch := make(chan string, 100)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// waitForLine reads lines until one contains s; it returns what was read.
func waitForLine(t *testing.T, ch <-chan string, s string) string {
	t.Helper()
	var seen strings.Builder
	for {
		line, ok := <-ch
		if !ok {
			t.Fatalf("output ended without %q:\n%s", s, seen.String())
		}
		seen.WriteString(line + "\n")
		if strings.Contains(line, s) {
			return seen.String()
		}
	}
}

// leftovers lists the files in dir other than keep.
func leftovers(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		kept := false
		for _, k := range keep {
			kept = kept || name == k
		}
		if !kept {
			out = append(out, name)
		}
	}
	return out
}

// exitCode waits for cmd, after reading the rest of its stderr, and returns
// its exit status and that stderr.
func exitCode(t *testing.T, cmd *exec.Cmd, stderr <-chan string) (int, string) {
	t.Helper()
	var rest strings.Builder
	for l := range stderr {
		rest.WriteString(l + "\n")
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), rest.String()
}

// freePort is a loopback port nothing listens on (as far as a test can
// tell: another process may take it before the test does).
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
