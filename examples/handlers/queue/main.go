// Command queue is a webhook handler that answers first and works later,
// and still gets duplicates right: the webhook inserts the event id and a
// job under a unique constraint in one SQLite transaction and answers 200
// at once; a worker takes the job a moment later (--work) and credits the
// account under the same guard, in the transaction that marks the job
// done. A retry finds the id and queues nothing; a job queued twice is
// credited once.
//
// This is the design the providers' docs recommend for slow work (answer
// 2xx at once, process from a queue). Its side effects land after its
// answers, so retrysim reads the effects oracle until they settle.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db), and serves GET /_retrysim/effects.
//
//	go run ./examples/handlers/queue --addr 127.0.0.1:8080
//	retrysim run --provider stripe --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects --fail-on duplicate-effects
//
// The handler logic is in simulator/demo (mode queue; queue-unguarded is the
// same design without the guard, and credits a duplicate late).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() {
	os.Exit(demo.Program(context.Background(), demo.Queue, os.Args[1:], os.Stdout, os.Stderr))
}
