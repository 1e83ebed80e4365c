// Command naive is a webhook handler that credits an account on every
// delivery: the handler most teams start with. Every duplicate delivery a
// provider sends, after a lost answer or a timeout, credits again.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db), and serves GET /_retrysim/effects.
//
//	go run ./examples/handlers/naive --addr 127.0.0.1:8080
//	retrysim run --provider stripe --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects
//
// The handler logic is in simulator/demo (mode naive).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() {
	os.Exit(demo.Program(context.Background(), demo.Naive, os.Args[1:], os.Stdout, os.Stderr))
}
