package simulator

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain runs more parallel subtests at once than go test's default of
// one per CPU, unless -parallel says otherwise: the parallel subtests here
// (the hostile handlers) mostly wait out real timeouts rather than compute.
// Top-level tests stay serial: the leak checks count every goroutine and
// socket of the process.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
	os.Exit(m.Run())
}
