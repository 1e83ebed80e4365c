package advice_test

import (
	"errors"
	"testing"

	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator/supervise"
)

// TestExecSaysTheFlag: a busy port before the handler started says how
// to free it; after a kill it only says so; any other failure names
// --exec; nil stays nil.
func TestExecSaysTheFlag(t *testing.T) {
	if advice.Exec(nil) != nil {
		t.Error("nil became an error")
	}
	before := &supervise.BusyPortError{Addr: "127.0.0.1:3000", Command: "node server.js"}
	got := advice.Exec(before)
	if want := `--exec: 127.0.0.1:3000 already accepts connections before "node server.js" started; stop what listens there, or give the handler and --url another port`; got.Error() != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if !errors.Is(got, before) {
		t.Error("the busy-port error is lost")
	}
	if got, want := advice.Exec(&supervise.BusyPortError{Addr: "127.0.0.1:3000"}).Error(), "--exec: 127.0.0.1:3000 still accepts connections after the handler was killed"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if got, want := advice.Exec(errors.New(`"nope": exited with 127`)).Error(), `--exec "nope": exited with 127`; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
