package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// slackTolerance is how far X-Slack-Request-Timestamp may be from now before
// slack-go's verifier rejects the request.
const slackTolerance = 5 * time.Minute

type slackWire struct{}

func init() { RegisterWire(slackWire{}) }

func (slackWire) Name() string             { return "slack" }
func (slackWire) DefaultEventType() string { return "message" }

func (slackWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = "Ev0" + strings.ToUpper(r.Alnum(8))
}

// slackTypes are the inner event types the Slack wire sends, the default
// first.
var slackTypes = []string{"message", "app_mention", "reaction_added", "member_joined_channel"}

func (slackWire) EventTypes() []string { return slackTypes }

// slackEnvelope is the Events API's event_callback; slackEvent the inner
// event, as @slack/types describes each type. Fields in alphabetical order.
type slackEnvelope struct {
	APIAppID           string               `json:"api_app_id"`
	Authorizations     []slackAuthorization `json:"authorizations"`
	Event              slackEvent           `json:"event"`
	EventContext       string               `json:"event_context"`
	EventID            string               `json:"event_id"`
	EventTime          int64                `json:"event_time"`
	IsExtSharedChannel bool                 `json:"is_ext_shared_channel"`
	TeamID             string               `json:"team_id"`
	Token              string               `json:"token"`
	Type               string               `json:"type"`
}

type slackAuthorization struct {
	EnterpriseID        *string `json:"enterprise_id"`
	IsBot               bool    `json:"is_bot"`
	IsEnterpriseInstall bool    `json:"is_enterprise_install"`
	TeamID              string  `json:"team_id"`
	UserID              string  `json:"user_id"`
}

type slackEvent struct {
	Channel     string     `json:"channel,omitempty"`
	ChannelType string     `json:"channel_type,omitempty"`
	EventTS     string     `json:"event_ts"`
	Item        *slackItem `json:"item,omitempty"`
	ItemUser    string     `json:"item_user,omitempty"`
	Reaction    string     `json:"reaction,omitempty"`
	Team        string     `json:"team,omitempty"`
	Text        string     `json:"text,omitempty"`
	TS          string     `json:"ts,omitempty"`
	Type        string     `json:"type"`
	User        string     `json:"user"`
}

type slackItem struct {
	Channel string `json:"channel"`
	TS      string `json:"ts"`
	Type    string `json:"type"`
}

func (slackWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	ts := fmt.Sprintf("%d.%06d", ev.Created.Unix(), r.IntN(1000000))
	channel := "C0" + strings.ToUpper(r.Alnum(8))
	user := "U0" + strings.ToUpper(r.Alnum(8))
	o, hasObject := objectRand(ev, 0x51)
	if hasObject {
		// The event is about one conversation (and, for a reaction, one
		// message in it; for a join, one member): the same ids on every
		// event about it.
		channel, user = "C0"+strings.ToUpper(o.Alnum(8)), "U0"+strings.ToUpper(o.Alnum(8))
	}
	inner := slackEvent{Type: ev.Type, User: user, EventTS: ts}
	switch ev.Type {
	case "app_mention":
		// Slack writes < and > as they are: no HTML escaping.
		inner.Text, inner.Channel, inner.TS = "<@U0DEMOBOT> ship order #1042", channel, ts
	case "reaction_added":
		inner.Reaction = "white_check_mark"
		itemTS := fmt.Sprintf("%d.%06d", ev.Created.Unix()-60, r.IntN(1000000))
		author := &r
		if hasObject {
			// an older message, the same one (and its author) on every
			// event about it
			itemTS = fmt.Sprintf("%d.%06d", 1_600_000_000+o.IntN(100_000_000), o.IntN(1000000))
			author = &o
		}
		inner.Item = &slackItem{Type: "message", Channel: channel, TS: itemTS}
		inner.ItemUser = "U0" + strings.ToUpper(author.Alnum(8))
	case "member_joined_channel":
		inner.Channel, inner.ChannelType, inner.Team = channel, "C", "T0DEMO7TEAM"
	default:
		inner.Text, inner.Channel, inner.TS, inner.ChannelType = "order shipped", channel, ts, "channel"
	}
	return marshalBody(slackEnvelope{
		Token:    "Jhj5dZrVaK7ZwHHjRyZWjbDl",
		TeamID:   "T0DEMO7TEAM",
		APIAppID: "A0DEMO7APP",
		Event:    inner, Type: "event_callback", EventID: ev.ID, EventTime: ev.Created.Unix(),
		Authorizations: []slackAuthorization{{TeamID: "T0DEMO7TEAM", UserID: "U0DEMOBOT", IsBot: true}},
		EventContext:   "4-" + r.Alnum(40),
	}), "application/json"
}

func (slackWire) Header(h http.Header, d Delivery) {
	h.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	// v0=<hex HMAC of "v0:<ts>:<body>">, built in one buffer.
	var buf [96]byte
	b := unixSeconds(append(buf[:0], "v0:"...), d.SignedAt)
	h.Set("X-Slack-Request-Timestamp", string(b[3:]))
	b = append(b, ':')
	sig := appendHMACHex(append(b, "v0="...), d.Secret, b, d.Body, nil)[len(b):]
	h.Set("X-Slack-Signature", string(sig))
	if d.N > 1 {
		h.Set("X-Slack-Retry-Num", strconv.Itoa(d.N-1))
		reason := d.RetryReason
		if reason == "" {
			reason = "unknown_error"
		}
		h.Set("X-Slack-Retry-Reason", reason)
	}
}

func (slackWire) NewSecret(r *Rand) string { return r.Hex(16) }

func (slackWire) DedupField() string { return "event_id in the body" }

func (slackWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		EventID string `json:"event_id"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.EventID == "" {
		return "", fmt.Errorf("slack: no event_id in body")
	}
	return ev.EventID, nil
}

func (slackWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	ts, sig := h.Get("X-Slack-Request-Timestamp"), h.Get("X-Slack-Signature")
	if ts == "" || sig == "" {
		return fmt.Errorf("%w: X-Slack-Signature or X-Slack-Request-Timestamp missing", ErrBadSignature)
	}
	if !equalSig(sig, "v0="+hmacHex(secret, []byte("v0:"+ts+":"), body)) {
		return fmt.Errorf("%w: X-Slack-Signature does not match", ErrBadSignature)
	}
	return checkTimestamp(ts, now, slackTolerance)
}
