// Command memory is a webhook handler that dedups in a map held in the
// process. It gets every retry right while it runs, and forgets every id
// when it restarts (a deploy, a crash, a scale-out to a second instance),
// while the credits stay in the database: the next retry of an event it had
// processed credits it again.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db, kept across restarts), and serves
// GET /_retrysim/effects.
//
//	go run ./examples/handlers/memory --addr 127.0.0.1:8080 --db memory.db
//	retrysim replay --request delivery.http --url http://127.0.0.1:8080/webhooks/stripe --times 2 \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects
//	# restart the handler, replay again: the event is credited a second time
//
// The handler logic is in simulator/demo (mode memory).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() {
	os.Exit(demo.Program(context.Background(), demo.Memory, os.Args[1:], os.Stdout, os.Stderr))
}
