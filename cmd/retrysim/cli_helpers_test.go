package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// Running the command line in-process, as the tests that need no real
// process do.

// runCLI runs the command line in dir and returns exit code, stdout and
// stderr.
func runCLI(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	return runCLIWith(t, context.Background(), dir, args...)
}

// runCLIWith is runCLI with the commands run under ctx (a resolver of
// the test's own, see withResolver).
func runCLIWith(t *testing.T, ctx context.Context, dir string, args ...string) (int, string, string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code := execute(ctx, newRootCmd(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// retrysim runs the command line in-process and returns its exit code,
// stdout and stderr.
func retrysim(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, bytes.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// mustRun runs the command line in-process and fails t unless it exits 0.
func mustRun(t *testing.T, stdin []byte, args ...string) (string, string) {
	t.Helper()
	code, out, errs := retrysim(t, stdin, args...)
	if code != 0 {
		t.Fatalf("retrysim %s: exit %d\n%s", strings.Join(args, " "), code, errs)
	}
	return out, errs
}
