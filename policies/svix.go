package policies

// Svix delivers with the Standard Webhooks scheme under its own header
// names: svix-id, svix-timestamp, svix-signature.
func init() {
	RegisterWire(standardWire{name: "svix", prefix: "svix", agent: "Svix-Webhooks/1.76.0 (sender-retrysim; +https://www.svix.com/http-sender/)"})
}
