package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// discordWire is Discord's interactions endpoint: slash commands, buttons,
// autocomplete and modals, each an interaction object answered within 3 s.
// Webhook events (entitlements) go to another URL in another envelope: see
// discordEventsWire.
type discordWire struct{ discordSigner }

func init() { RegisterWire(discordWire{}) }

func (discordWire) Name() string             { return "discord" }
func (discordWire) DefaultEventType() string { return "APPLICATION_COMMAND" }

// discordInteractions maps the interaction types the Discord wire sends to
// Discord's numbers.
var discordInteractions = map[string]int{
	"PING": 1, "APPLICATION_COMMAND": 2, "MESSAGE_COMPONENT": 3, "APPLICATION_COMMAND_AUTOCOMPLETE": 4, "MODAL_SUBMIT": 5,
}

func (discordWire) EventTypes() []string {
	return []string{"APPLICATION_COMMAND", "PING", "MESSAGE_COMPONENT", "APPLICATION_COMMAND_AUTOCOMPLETE", "MODAL_SUBMIT"}
}

func (discordWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = discordSnowflake(&r)
}

// discordGuild and discordChannel are where the simulated interactions
// happen.
const (
	discordGuild   = "1200000000000000002"
	discordChannel = "1200000000000000009"
)

// discordInteraction is an interaction object as discord-api-types' v10
// APIInteraction describes it. Fields in alphabetical order.
type discordInteraction struct {
	AppPermissions               string               `json:"app_permissions"`
	ApplicationID                string               `json:"application_id"`
	AttachmentSizeLimit          int                  `json:"attachment_size_limit"`
	AuthorizingIntegrationOwners map[string]string    `json:"authorizing_integration_owners"`
	Channel                      *discordChannelRef   `json:"channel,omitempty"`
	ChannelID                    string               `json:"channel_id,omitempty"`
	Context                      *int                 `json:"context,omitempty"`
	Data                         any                  `json:"data,omitempty"`
	Entitlements                 []discordEntitlement `json:"entitlements"`
	GuildID                      string               `json:"guild_id,omitempty"`
	GuildLocale                  string               `json:"guild_locale,omitempty"`
	ID                           string               `json:"id"`
	Locale                       string               `json:"locale,omitempty"`
	Member                       *discordMember       `json:"member,omitempty"`
	Message                      *discordMessage      `json:"message,omitempty"`
	Token                        string               `json:"token"`
	Type                         int                  `json:"type"`
	Version                      int                  `json:"version"`
}

type discordChannelRef struct {
	ID   string `json:"id"`
	Type int    `json:"type"`
}

type discordUserObject struct {
	Avatar        *string `json:"avatar"`
	Bot           bool    `json:"bot,omitempty"`
	Discriminator string  `json:"discriminator"`
	GlobalName    *string `json:"global_name"`
	ID            string  `json:"id"`
	Username      string  `json:"username"`
}

type discordMember struct {
	Deaf        bool              `json:"deaf"`
	Flags       int               `json:"flags"`
	JoinedAt    string            `json:"joined_at"`
	Mute        bool              `json:"mute"`
	Pending     bool              `json:"pending"`
	Permissions string            `json:"permissions"`
	Roles       []string          `json:"roles"`
	User        discordUserObject `json:"user"`
}

type discordMessage struct {
	Attachments     []struct{}          `json:"attachments"`
	Author          discordUserObject   `json:"author"`
	ChannelID       string              `json:"channel_id"`
	Content         string              `json:"content"`
	EditedTimestamp *string             `json:"edited_timestamp"`
	Embeds          []struct{}          `json:"embeds"`
	ID              string              `json:"id"`
	MentionEveryone bool                `json:"mention_everyone"`
	MentionRoles    []string            `json:"mention_roles"`
	Mentions        []discordUserObject `json:"mentions"`
	Pinned          bool                `json:"pinned"`
	Timestamp       string              `json:"timestamp"`
	TTS             bool                `json:"tts"`
	Type            int                 `json:"type"`
}

type discordCommandData struct {
	ID      string                 `json:"id"`
	Name    string                 `json:"name"`
	Options []discordCommandOption `json:"options,omitempty"`
	Type    int                    `json:"type"`
}

type discordCommandOption struct {
	Focused bool   `json:"focused,omitempty"`
	Name    string `json:"name"`
	Type    int    `json:"type"`
	Value   string `json:"value"`
}

type discordComponentData struct {
	ComponentType int    `json:"component_type"`
	CustomID      string `json:"custom_id"`
}

type discordModalData struct {
	Components []discordModalRow `json:"components"`
	CustomID   string            `json:"custom_id"`
}

type discordModalRow struct {
	Components []discordModalInput `json:"components"`
	Type       int                 `json:"type"`
}

type discordModalInput struct {
	CustomID string `json:"custom_id"`
	Type     int    `json:"type"`
	Value    string `json:"value"`
}

// discordAppPermissions is the permissions the app has where it was
// invoked, as Discord writes it: a decimal bit set.
const discordAppPermissions = "2248473465835073"

func (discordWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	typ := discordInteractions[ev.Type]
	if typ == 0 {
		typ = 2
	}
	in := discordInteraction{
		AppPermissions: discordAppPermissions, ApplicationID: discordApp, AttachmentSizeLimit: 10 << 20,
		AuthorizingIntegrationOwners: map[string]string{}, Entitlements: []discordEntitlement{},
		ID: ev.ID, Token: r.Alnum(40), Type: typ, Version: 1,
	}
	if typ == 1 {
		return marshalBody(in), "application/json"
	}
	name := "ada"
	in.GuildID, in.ChannelID = discordGuild, discordChannel
	in.Channel = &discordChannelRef{ID: discordChannel, Type: 0}
	in.AuthorizingIntegrationOwners["0"] = discordGuild
	in.Locale, in.GuildLocale = "en-US", "en-US"
	guild := 0
	in.Context = &guild
	at := ev.Created.UTC().Format("2006-01-02T15:04:05.000000+00:00")
	in.Member = &discordMember{
		JoinedAt: "2024-01-15T10:00:00.000000+00:00", Permissions: discordAppPermissions, Roles: []string{},
		User: discordUserObject{Discriminator: "0", GlobalName: &name, ID: discordUser(ev, &r), Username: name},
	}
	switch typ {
	case 3:
		in.Data = discordComponentData{ComponentType: 2, CustomID: "confirm_order"}
		in.Message = &discordMessage{
			Attachments: []struct{}{}, Embeds: []struct{}{}, MentionRoles: []string{}, Mentions: []discordUserObject{},
			Author:    discordUserObject{Bot: true, Discriminator: "0000", ID: discordApp, Username: "retrysim-demo"},
			ChannelID: discordChannel, Content: "Confirm order #1042?", ID: discordSnowflake(&r), Timestamp: at,
		}
	case 4:
		in.Data = discordCommandData{ID: "1400000000000000004", Name: "redeem", Type: 1,
			Options: []discordCommandOption{{Focused: true, Name: "code", Type: 3, Value: "RE"}}}
	case 5:
		in.Data = discordModalData{CustomID: "feedback", Components: []discordModalRow{{Type: 1,
			Components: []discordModalInput{{CustomID: "feedback_text", Type: 4, Value: "Arrived twice."}}}}}
	default:
		in.Data = discordCommandData{ID: "1400000000000000004", Name: "redeem", Type: 1}
	}
	return marshalBody(in), "application/json"
}

func (discordWire) DedupField() string { return "interaction id in the body" }

func (discordWire) DedupID(_ http.Header, body []byte) (string, error) {
	var in struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &in); err != nil || in.ID == "" {
		return "", fmt.Errorf("discord: no interaction id in body")
	}
	return in.ID, nil
}
