// Command check-then-act is a webhook handler that looks the event id up,
// does the work, then records the id, as three separate steps. Retries that
// come one after another are caught; two deliveries of one event that
// overlap (a provider retrying while the first attempt still runs, or
// sending twice at once) both pass the check and both credit.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db), and serves GET /_retrysim/effects. --work sets
// how long the work between check and record takes.
//
//	go run ./examples/handlers/check-then-act --addr 127.0.0.1:8080
//	retrysim replay --request delivery.http --concurrent --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects
//
// The handler logic is in simulator/demo (mode check-then-act).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() {
	os.Exit(demo.Program(context.Background(), demo.CheckThenAct, os.Args[1:], os.Stdout, os.Stderr))
}
