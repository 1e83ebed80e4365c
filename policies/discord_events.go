package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// discordEventsWire is Discord's webhook events endpoint: events about the
// application (entitlements) in the envelope {"version", "application_id",
// "type": 1, "event": {"type", "timestamp", "data"}}, answered 204. It is
// another URL than the interactions endpoint, and another envelope: an
// interactions handler reads "type": 1 as a PING.
type discordEventsWire struct{ discordSigner }

func init() { RegisterWire(discordEventsWire{}) }

func (discordEventsWire) Name() string             { return "discord-events" }
func (discordEventsWire) DefaultEventType() string { return "ENTITLEMENT_CREATE" }

// discordEvents are the webhook event types the wire sends; each carries
// the entitlement whose id is the dedup id.
var discordEvents = []string{"ENTITLEMENT_CREATE", "ENTITLEMENT_UPDATE", "ENTITLEMENT_DELETE"}

func (discordEventsWire) EventTypes() []string { return discordEvents }

// SecretOf says webhook events are signed with the application's key pair,
// the one its interactions are signed with.
func (discordEventsWire) SecretOf() string { return "discord" }

func (discordEventsWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = discordSnowflake(&r)
}

// discordWebhookEvent is the envelope of discord-api-types' v10
// APIWebhookEvent. Fields in alphabetical order.
type discordWebhookEvent struct {
	ApplicationID string              `json:"application_id"`
	Event         *discordWebhookBody `json:"event,omitempty"`
	Type          int                 `json:"type"`
	Version       int                 `json:"version"`
}

type discordWebhookBody struct {
	Data      discordEntitlement `json:"data"`
	Timestamp string             `json:"timestamp"`
	Type      string             `json:"type"`
}

// discordEntitlement is an APIEntitlement.
type discordEntitlement struct {
	ApplicationID string  `json:"application_id"`
	Consumed      bool    `json:"consumed"`
	Deleted       bool    `json:"deleted"`
	EndsAt        *string `json:"ends_at"`
	ID            string  `json:"id"`
	SKUID         string  `json:"sku_id"`
	StartsAt      *string `json:"starts_at"`
	Type          int     `json:"type"`
	UserID        string  `json:"user_id,omitempty"`
}

func (discordEventsWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	return marshalBody(discordWebhookEvent{
		ApplicationID: discordApp, Type: 1, Version: 1,
		Event: &discordWebhookBody{
			Type: ev.Type, Timestamp: ev.Created.UTC().Format("2006-01-02T15:04:05.000000Z07:00"),
			Data: discordEntitlement{
				ID: ev.ID, SKUID: "1300000000000000003", ApplicationID: discordApp, UserID: discordUser(ev, &r),
				Type: 8, Deleted: ev.Type == "ENTITLEMENT_DELETE",
			},
		},
	}), "application/json"
}

func (discordEventsWire) DedupField() string {
	return "event.data.id in the body (the entitlement's id)"
}

func (discordEventsWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		Event struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.Event.Data.ID == "" {
		return "", fmt.Errorf("discord-events: no event.data.id in body")
	}
	return ev.Event.Data.ID, nil
}
