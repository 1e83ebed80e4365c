package supervise

import (
	"context"
	"errors"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"testing"
)

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestHelperListen is not a test: it is the handler the tests below start,
// a process that listens on $SUPERVISE_TEST_LISTEN until it is killed.
func TestHelperListen(t *testing.T) {
	addr := os.Getenv("SUPERVISE_TEST_LISTEN")
	if addr == "" {
		t.Skip("the handler process of the supervise tests")
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		os.Exit(3)
	}
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(0)
		}
		c.Close()
	}
}

// A handler started is waited for until its port accepts connections,
// comes back after a restart, and is gone after Stop.
func TestStartRestartStop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	addr := freeAddr(t)
	t.Setenv("SUPERVISE_TEST_LISTEN", addr)
	h, err := Start(context.Background(), os.Args[0]+" -test.run=^TestHelperListen$", &url.URL{Scheme: "http", Host: addr, Path: "/hook"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Stop()
	if !h.accepting() {
		t.Fatal("Start returned before the handler accepted connections")
	}
	if err := h.Restart(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !h.accepting() {
		t.Fatal("Restart returned before the handler accepted connections again")
	}
	h.Stop()
	if h.accepting() {
		t.Fatal("the handler still accepts connections after Stop")
	}
}

// A handler that exits before it listens, or a port taken before it
// starts, is an error naming what happened.
func TestStartFails(t *testing.T) {
	addr := freeAddr(t)
	_, err := Start(context.Background(), "exit 3", &url.URL{Scheme: "http", Host: addr}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), `"exit 3" exited (exit status 3) before accepting connections on `+addr) {
		t.Fatalf("a handler that exits at once: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = Start(context.Background(), "exit 0", &url.URL{Scheme: "http", Host: ln.Addr().String()}, io.Discard)
	var busy *BusyPortError
	if !errors.As(err, &busy) || busy.Command != "exit 0" || busy.Addr != ln.Addr().String() {
		t.Fatalf("a port already taken: %v", err)
	}
}
