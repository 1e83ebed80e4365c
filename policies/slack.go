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
	inner := map[string]any{"type": ev.Type, "user": user, "event_ts": ts}
	switch ev.Type {
	case "app_mention":
		inner["text"], inner["channel"], inner["ts"] = "<@U0DEMOBOT> ship order #1042", channel, ts
	case "reaction_added":
		inner["reaction"] = "white_check_mark"
		itemTS := fmt.Sprintf("%d.%06d", ev.Created.Unix()-60, r.IntN(1000000))
		if hasObject {
			// an older message, the same one on every event about it
			itemTS = fmt.Sprintf("%d.%06d", 1_600_000_000+o.IntN(100_000_000), o.IntN(1000000))
		}
		inner["item"] = map[string]any{"type": "message", "channel": channel, "ts": itemTS}
	case "member_joined_channel":
		inner["channel"], inner["channel_type"], inner["team"] = channel, "C", "T0DEMO7TEAM"
	default:
		inner["text"], inner["channel"], inner["ts"], inner["channel_type"] = "order shipped", channel, ts, "channel"
	}
	body, _ := json.Marshal(map[string]any{
		"token":      "Jhj5dZrVaK7ZwHHjRyZWjbDl",
		"team_id":    "T0DEMO7TEAM",
		"api_app_id": "A0DEMO7APP",
		"event":      inner,
		"type":       "event_callback",
		"event_id":   ev.ID,
		"event_time": ev.Created.Unix(),
		"authorizations": []any{map[string]any{
			"enterprise_id": nil, "team_id": "T0DEMO7TEAM", "user_id": "U0DEMOBOT", "is_bot": true, "is_enterprise_install": false,
		}},
		"is_ext_shared_channel": false,
		"event_context":         "4-" + r.Alnum(40),
	})
	return body, "application/json"
}

func (slackWire) Header(h http.Header, d Delivery) {
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", "Slackbot 1.0 (+https://api.slack.com/robots)")
	h.Set("X-Slack-Request-Timestamp", ts)
	h.Set("X-Slack-Signature", "v0="+hmacHex(d.Secret, []byte("v0:"+ts+":"), d.Body))
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
