package policies

import (
	"encoding/json"
	"net/http"
)

// typeHeaders name, for the wire formats that send it in a header, the
// header carrying a delivery's event type.
var typeHeaders = map[string]string{
	"github":         "X-GitHub-Event",
	"shopify":        "X-Shopify-Topic",
	"shopify-events": "Shopify-Topic",
	"gitlab":         "X-Gitlab-Event",
}

// ReadEventType reads a received delivery's event type where w's provider
// puts it: a header (GitHub, Shopify, GitLab), the body's "type" (Stripe,
// Standard Webhooks, Svix, Discord's webhook events), the body's
// "event.type" (Slack's event callbacks), "event" (Zoom) or "event_type"
// (PayPal). It returns "" when the delivery does not say.
func ReadEventType(w Wire, h http.Header, body []byte) string {
	if k, ok := typeHeaders[w.Name()]; ok {
		return h.Get(k)
	}
	var v struct {
		Type      any    `json:"type"`
		EventType string `json:"event_type"`
		Event     any    `json:"event"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	switch ev := v.Event.(type) {
	case string:
		return ev // Zoom
	case map[string]any:
		if t, ok := ev["type"].(string); ok {
			return t // Slack's event callback
		}
	}
	if t, ok := v.Type.(string); ok {
		return t
	}
	return v.EventType
}

// TypeHeader names the header that carries a delivery's event type for w,
// and true, for the providers that send it in a header (GitHub, Shopify,
// GitLab); "" and false for those whose body says it.
func TypeHeader(w Wire) (string, bool) {
	k, ok := typeHeaders[w.Name()]
	return k, ok
}
