package main

import (
	"fmt"
	"net"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run the retrysim command, and the tiny test
// handlers, as real commands in the scripts' $PATH, so that --exec can start
// them as processes and kill them.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"retrysim":   func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		"memhandler": memHandlerMain,
	})
}

// TestScripts runs the CLI scripts in testdata/script: what a user types and
// what they see, exit codes included. $PORT1 and $PORT2 are free loopback
// ports for handlers a script starts.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
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

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
