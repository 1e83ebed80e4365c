package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// zoomTolerance is how far x-zm-request-timestamp may be from now before a
// careful handler rejects the request (Zoom's samples use 5 minutes).
const zoomTolerance = 5 * time.Minute

type zoomWire struct{}

func init() { RegisterWire(zoomWire{}) }

func (zoomWire) Name() string             { return "zoom" }
func (zoomWire) DefaultEventType() string { return "meeting.started" }

// zoomTypes are the event types the Zoom wire sends, the default first.
var zoomTypes = []string{"meeting.started", "meeting.ended", "meeting.participant_joined", "recording.completed"}

func (zoomWire) EventTypes() []string { return zoomTypes }

// zoomMeeting is the meeting uuid of an event.
func zoomMeeting(ev Event) string {
	r := Key(ev.Seed, 1, 0)
	return r.Alnum(22) + "=="
}

// NewEvent makes the dedup id: Zoom documents none, so retrysim uses the
// event name and the meeting uuid from the body, which is resent unchanged.
func (zoomWire) NewEvent(ev *Event) { ev.ID = ev.Type + ":" + zoomMeeting(*ev) }

func (zoomWire) NewSecret(r *Rand) string { return r.Alnum(22) }

func (zoomWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format(time.RFC3339)
	obj := map[string]any{
		"uuid": zoomMeeting(ev), "id": 80000000000 + r.IntN(999999999), "host_id": "z8yAAAAA" + r.Alnum(14),
		"topic": "Incident review: duplicate webhooks", "type": 2, "start_time": at, "timezone": "UTC", "duration": 30,
	}
	if o, ok := objectRand(ev, 0x2c); ok {
		// The event is about one meeting (its id, which a recurring
		// meeting keeps; each occurrence has its own uuid): the same id
		// and host on every event about it.
		obj["id"], obj["host_id"] = 10000000000+o.IntN(89_999_999_999), "z8yAAAAA"+o.Alnum(14)
	}
	switch ev.Type {
	case "meeting.ended":
		obj["end_time"] = ev.Created.Add(30 * time.Minute).UTC().Format(time.RFC3339)
	case "meeting.participant_joined":
		obj["participant"] = map[string]any{"user_id": strconv.Itoa(16778240 + r.IntN(100000)), "user_name": "Ada Lovelace", "join_time": at}
	case "recording.completed":
		obj["recording_count"] = 1
		obj["total_size"] = 1000000 + r.IntN(90000000)
	}
	body, _ := json.Marshal(map[string]any{
		"event":    ev.Type,
		"event_ts": ev.Created.UnixMilli(),
		"payload":  map[string]any{"account_id": "AAAAAbBbCcDdEeFf0g1h2i", "object": obj},
	})
	return body, "application/json; charset=utf-8"
}

func (zoomWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, uint64(d.N))
	ts := strconv.FormatInt(d.SignedAt.Unix(), 10)
	h.Set("User-Agent", "Zoom Marketplace/1.0a")
	h.Set("x-zm-request-timestamp", ts)
	h.Set("x-zm-signature", "v0="+hmacHex(d.Secret, []byte("v0:"+ts+":"), d.Body))
	h.Set("x-zm-trackingid", "v=2.0;clid=aw1;rid=WEBHOOK_"+r.Hex(16))
}

func (zoomWire) DedupField() string {
	return `event and payload.object.uuid in the body ("meeting.started:<uuid>")`
}

func (zoomWire) DedupID(_ http.Header, body []byte) (string, error) {
	var ev struct {
		Event   string `json:"event"`
		Payload struct {
			Object struct {
				UUID string `json:"uuid"`
			} `json:"object"`
		} `json:"payload"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.Event == "" || ev.Payload.Object.UUID == "" {
		return "", fmt.Errorf("zoom: no event or payload.object.uuid in body")
	}
	return ev.Event + ":" + ev.Payload.Object.UUID, nil
}

func (zoomWire) Verify(h http.Header, body []byte, _, secret string, now time.Time) error {
	ts, sig := h.Get("x-zm-request-timestamp"), h.Get("x-zm-signature")
	if ts == "" || sig == "" {
		return fmt.Errorf("%w: x-zm-signature or x-zm-request-timestamp missing", ErrBadSignature)
	}
	if !equalSig(sig, "v0="+hmacHex(secret, []byte("v0:"+ts+":"), body)) {
		return fmt.Errorf("%w: x-zm-signature does not match", ErrBadSignature)
	}
	return checkTimestamp(ts, now, zoomTolerance)
}
