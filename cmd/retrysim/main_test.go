package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/retrysim/retrysim/simulator/demo"
)

// TestMain lets testscript run the retrysim command, and the tiny test
// handlers, as real commands in the scripts' $PATH, so that --exec can start
// them as processes and kill them.
func TestMain(m *testing.M) {
	testscript.Main(cleaningUp{m}, map[string]func(){
		"retrysim":   main, // the command exactly as installed: its heap floor and SIGPIPE handling too
		"memhandler": memHandlerMain,
		"okhandler":  okHandlerMain,
		// The example programs under examples/handlers, as --exec starts them.
		"handler-memory": func() { os.Exit(demo.Program(context.Background(), demo.Memory, os.Args[1:], os.Stdout, os.Stderr)) },
		"handler-idempotent": func() {
			os.Exit(demo.Program(context.Background(), demo.Idempotent, os.Args[1:], os.Stdout, os.Stderr))
		},
		"handler-queue": func() { os.Exit(demo.Program(context.Background(), demo.Queue, os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// cleaningUp runs the tests, then removes the binary and stops the
// database server they shared.
type cleaningUp struct{ m *testing.M }

func (c cleaningUp) Run() int {
	defer removeBinary()
	defer stopPostgres()
	moreInParallel()
	if raceSlowdown > 1 && !testing.Short() && flag.Lookup("test.run").Value.String() == "" {
		buildAhead() // the whole package runs: some test will need it
	}
	return c.m.Run()
}

// waitingPerCPU is how many parallel tests run at once per CPU, unless
// -parallel says otherwise. Most tests here wait on processes and handlers
// (a run's effects settling, a real handler's sleep, a signal's delivery)
// rather than compute, so go test's default of one per CPU leaves the CPUs
// idle while they wait.
const waitingPerCPU = 4

// moreInParallel sets -parallel to waitingPerCPU per CPU when the command
// line did not set it.
func moreInParallel() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(waitingPerCPU*runtime.GOMAXPROCS(0)))
	}
}

// TestScripts runs the CLI scripts in testdata/script: what a user types and
// what they see, exit codes included. $PORT1 and $PORT2 are free loopback
// ports for handlers a script starts.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"emptydir": cmdEmptyDir,
		},
		Setup: func(env *testscript.Env) error {
			for _, name := range []string{"PORT1", "PORT2"} {
				port, err := freePort()
				if err != nil {
					return err
				}
				env.Setenv(name, fmt.Sprint(port))
			}
			return nil
		},
	})
}

// cmdExits is "exits CODE PROGRAM [ARGS...]": run the program and check its
// exit code exactly (exec only tells zero from non-zero), keeping its
// output for stdout and stderr to inspect.
func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// cmdEmptyDir is "emptydir DIR": check that nothing is left in DIR.
func cmdEmptyDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: emptydir DIR")
	}
	left, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, e := range left {
		ts.Logf("left in %s: %s", args[0], e.Name())
	}
	if len(left) > 0 {
		ts.Fatalf("%s is not empty", args[0])
	}
}
