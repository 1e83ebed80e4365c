// Command idempotent is a webhook handler that gets duplicates right: it
// inserts the event id under a unique constraint in the same SQLite
// transaction as the credit, and answers 200 without crediting when the id
// is already there. Restarts, overlaps and retries days later change
// nothing.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db), and serves GET /_retrysim/effects.
//
//	go run ./examples/handlers/idempotent --addr 127.0.0.1:8080
//	retrysim run --provider stripe --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects --fail-on duplicate-effects
//
// The handler logic is in simulator/demo (mode idempotent).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() {
	os.Exit(demo.Program(context.Background(), demo.Idempotent, os.Args[1:], os.Stdout, os.Stderr))
}
