// Package sdkverify checks retrysim's requests with the providers' own
// verifiers: stripe-go, go-github, slack-go, twilio-go, the Standard
// Webhooks library and crypto/ed25519 for Discord. It is a module of its own
// so that those SDKs never become dependencies of retrysim itself; it holds
// tests only.
package sdkverify
