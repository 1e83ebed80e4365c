package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture/capturetest"

	"github.com/spf13/cobra"
)

// helpExamples returns the command lines of the Examples: block of cmd's
// long help, a line ending in \ joined with the next.
func helpExamples(cmd *cobra.Command) []string {
	_, block, ok := strings.Cut(cmd.Long, "Examples:\n")
	if !ok {
		return nil
	}
	var out []string
	cont := false
	for _, line := range strings.Split(block, "\n") {
		line = strings.TrimSpace(line)
		if line == "" && !cont {
			break
		}
		if cont {
			out[len(out)-1] += " " + strings.TrimSuffix(line, `\`)
		} else {
			out = append(out, strings.TrimSuffix(line, `\`))
		}
		cont = strings.HasSuffix(line, `\`)
	}
	return out
}

// selfContained says whether an example runs on its own: it names no
// handler of the user's (--url, --exec, placeholders), serves none (demo)
// and reads no capture but delivery.http, which the test provides.
func selfContained(ex string) bool {
	for _, s := range []string{"…", "--url", "--exec", `"`, "capture.har", "curl.txt", "retrysim demo"} {
		if strings.Contains(ex, s) {
			return false
		}
	}
	return true
}

// Every example in every command's help that runs on its own does: it
// exits 0 (1 when it shows a --fail-on gate failing) and writes a report.
// The examples of one command run in order in one directory, as a reader
// would type them (report's read the results file its first one writes).
func TestHelpExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every example")
	}
	t.Parallel()
	capture := capturetest.Bytes(t, "stripe.http")
	var cmds []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		cmds = append(cmds, c)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd())
	ran := 0
	for _, c := range cmds {
		examples := helpExamples(c)
		if len(examples) == 0 {
			continue
		}
		for _, ex := range examples {
			if selfContained(ex) {
				ran++
			}
		}
		t.Run(c.CommandPath(), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "delivery.http"), capture, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, ex := range examples {
				if !selfContained(ex) {
					continue
				}
				out, code := runExample(t, dir, ex)
				want := 0
				if strings.Contains(ex, "--fail-on") {
					want = 1 // the examples show a gate catching a bad handler
				}
				if code != want {
					t.Errorf("%s\nexited %d, want %d", ex, code, want)
				}
				if !strings.Contains(ex, ">") && len(bytes.TrimSpace(out)) == 0 {
					t.Errorf("%s\nprinted nothing", ex)
				}
				if strings.Contains(ex, "--demo ttl") {
					// The ttl handler's example must show what it is there
					// for: a retry after the key expired, processed again.
					for _, w := range []string{"NOT IDEMPOTENT", "resent by hand: delivered 200  ✗ processed 2 times"} {
						if !bytes.Contains(out, []byte(w)) {
							t.Errorf("%s\ndoes not show %q:\n%s", ex, w, out)
						}
					}
				}
			}
		})
	}
	if ran < 20 {
		t.Errorf("ran %d examples; the help has more that run on their own", ran)
	}
}

// runExample runs one example line in dir, as the user would type it
// (but for --events, see exampleEvents): each command is the built binary
// (never the race detector's build: the examples run thousands of events,
// which takes it minutes, and the packages' own tests cover the same code
// under it), commands joined by | feed each other, and > FILE writes the
// last one's stdout to FILE. It returns the last command's stdout and exit
// code (the first non-zero one of a pipeline).
func runExample(t *testing.T, dir, ex string) ([]byte, int) {
	t.Helper()
	bin := buildBinary(t)
	line, file, redirect := strings.Cut(ex, ">")
	var in []byte
	var out bytes.Buffer
	code := 0
	for _, part := range strings.Split(line, "|") {
		args := strings.Fields(part)
		if len(args) == 0 || args[0] != "retrysim" {
			t.Fatalf("%s: not a retrysim command line", ex)
		}
		args = atExampleSize(t, args)
		out.Reset()
		var errb bytes.Buffer
		cmd := exec.Command(bin, args[1:]...)
		cmd.Dir, cmd.Stdin, cmd.Stdout, cmd.Stderr = dir, bytes.NewReader(in), &out, &errb
		c := 0
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("%s: %v", part, err)
			}
			c = ee.ExitCode()
		}
		if c != 0 && code == 0 {
			code = c
			t.Logf("%s: %s", part, errb.String())
		}
		in = bytes.Clone(out.Bytes())
	}
	if redirect {
		if err := os.WriteFile(filepath.Join(dir, strings.TrimSpace(file)), out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes(), code
}

// exampleEvents is the most events an example runs here. An example of a
// big run (report's, 100,000 events into a compressed results file, then
// read back as JSON) shows its flags working together, which does not
// depend on the count; at its full size it cost the suite 3 s of CPU. A run
// of a million events in bounded memory is TestMillionEventsDryRun's.
const exampleEvents = 10_000

// atExampleSize returns args with an --events count above exampleEvents
// lowered to it, once the count as written is checked to be one retrysim
// takes.
func atExampleSize(t *testing.T, args []string) []string {
	t.Helper()
	args = slices.Clone(args)
	for i, a := range args {
		value, inline := strings.CutPrefix(a, "--events=")
		if !inline {
			if a != "--events" || i+1 == len(args) {
				continue
			}
			value = args[i+1]
		}
		n, err := strconv.Atoi(value)
		if err != nil || n <= exampleEvents {
			continue // the command itself judges it
		}
		if err := simulator.CheckEvents(n); err != nil {
			t.Fatalf("%s: %v", strings.Join(args, " "), err)
		}
		if inline {
			args[i] = "--events=" + strconv.Itoa(exampleEvents)
		} else {
			args[i+1] = strconv.Itoa(exampleEvents)
		}
	}
	return args
}
