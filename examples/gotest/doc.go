// Package gotest shows retrysim as a Go library inside an ordinary
// `go test`: the test in this directory drives a webhook handler through
// simulator.Run — in process as an http.Handler, or over loopback through
// httptest.NewServer — with Stripe's retry policy and the flaky-network
// scenario, and asserts the idempotency verdict. Three days of Stripe
// retries run on a fake clock in milliseconds; nothing sleeps.
//
// Copy webhook_test.go next to your own handler and replace demo.New with
// it; serve your side effects as {"<dedup id>": <times processed>} for the
// verdict.
package gotest
