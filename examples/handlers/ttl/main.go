// Command ttl is a webhook handler whose dedup key expires after --ttl, as
// a Redis key set with SET NX EX would. It measures time on the
// Retrysim-Virtual-Time header retrysim sends, so a key of a few hours
// expires during a simulated run of seconds: any retry that comes after the
// key expired is credited again. A TTL shorter than the provider's retry
// window lets real duplicates through.
//
// It verifies the provider's signature (401 when it fails), writes the credit
// to an SQLite ledger (--db), and serves GET /_retrysim/effects.
//
//	go run ./examples/handlers/ttl --addr 127.0.0.1:8080 --ttl 24h
//	retrysim run --provider stripe --scenario late-redelivery --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url http://127.0.0.1:8080/_retrysim/effects
//
// The handler logic is in simulator/demo (mode ttl).
package main

import (
	"context"
	"os"

	"github.com/retrysim/retrysim/simulator/demo"
)

func main() { os.Exit(demo.Program(context.Background(), demo.TTL, os.Args[1:], os.Stdout, os.Stderr)) }
