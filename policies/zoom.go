package policies

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Zoom's docs ask only that the signature be checked, and neither its SDK
// (Rivet's CommonHttpRequest.isEventVerified) nor its webhook sample
// checks x-zm-request-timestamp's age: the scheme has no tolerance, and a
// handler that bounds the age (advisedTolerance) does better than the docs
// ask.

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

// zoomEvent is a Zoom event notification as Rivet's types describe it
// (MeetingStartedEvent and the others); fields in the order Zoom writes
// them.
type zoomEvent struct {
	Event   string      `json:"event"`
	EventTS int64       `json:"event_ts"`
	Payload zoomPayload `json:"payload"`
}

type zoomPayload struct {
	AccountID string     `json:"account_id"`
	Object    zoomObject `json:"object"`
}

// zoomObject is the meeting. Its id is a string in the meeting.* events
// (Rivet's types) and a number in recording.completed.
type zoomObject struct {
	Duration       int              `json:"duration"`
	EndTime        string           `json:"end_time,omitempty"`
	HostID         string           `json:"host_id"`
	ID             any              `json:"id"`
	Participant    *zoomParticipant `json:"participant,omitempty"`
	RecordingCount int              `json:"recording_count,omitempty"`
	StartTime      string           `json:"start_time"`
	Timezone       string           `json:"timezone"`
	Topic          string           `json:"topic"`
	TotalSize      int              `json:"total_size,omitempty"`
	Type           int              `json:"type"`
	UUID           string           `json:"uuid"`
}

type zoomParticipant struct {
	Email    string `json:"email"`
	JoinTime string `json:"join_time"`
	UserID   string `json:"user_id"`
	UserName string `json:"user_name"`
}

func (zoomWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format(time.RFC3339)
	id, host := 80000000000+r.Int64N(999999999), "z8yAAAAA"+r.Alnum(14)
	obj := zoomObject{
		UUID: zoomMeeting(ev), Topic: "Incident review: duplicate webhooks", Type: 2, StartTime: at, Timezone: "UTC", Duration: 30,
	}
	if o, ok := objectRand(ev, 0x2c); ok {
		// The event is about one meeting (its id, which a recurring
		// meeting keeps; each occurrence has its own uuid): the same id
		// and host on every event about it.
		id, host = 10000000000+o.Int64N(89_999_999_999), "z8yAAAAA"+o.Alnum(14)
	}
	obj.HostID = host
	obj.ID = strconv.FormatInt(id, 10)
	switch ev.Type {
	case "meeting.ended":
		obj.EndTime = ev.Created.Add(30 * time.Minute).UTC().Format(time.RFC3339)
	case "meeting.participant_joined":
		obj.Participant = &zoomParticipant{Email: "ada@example.com", UserID: strconv.Itoa(16778240 + r.IntN(100000)), UserName: "Ada Lovelace", JoinTime: at}
	case "recording.completed":
		obj.ID = id
		obj.RecordingCount = 1
		obj.TotalSize = 1000000 + r.IntN(90000000)
	}
	return marshalBody(zoomEvent{
		Event: ev.Type, EventTS: ev.Created.UnixMilli(),
		Payload: zoomPayload{AccountID: "AAAAAbBbCcDdEeFf0g1h2i", Object: obj},
	}), "application/json; charset=utf-8"
}

func (zoomWire) Header(h http.Header, d Delivery) {
	r := Key(d.Event.Seed, 3, uint64(d.N))
	h.Set("User-Agent", "Zoom Marketplace/1.0a")
	// v0=<hex HMAC of "v0:<ts>:<body>">, built in one buffer.
	var buf [96]byte
	b := unixSeconds(append(buf[:0], "v0:"...), d.SignedAt)
	h.Set("x-zm-request-timestamp", string(b[3:]))
	b = append(b, ':')
	sig := appendHMACHex(append(b, "v0="...), d.Secret, b, d.Body, nil)[len(b):]
	h.Set("x-zm-signature", string(sig))
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

// Verify checks the signature as Zoom's SDK does: the timestamp is signed,
// its age is not checked.
func (zoomWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	ts, sig := h.Get("x-zm-request-timestamp"), h.Get("x-zm-signature")
	if ts == "" || sig == "" {
		return fmt.Errorf("%w: x-zm-signature or x-zm-request-timestamp missing", ErrBadSignature)
	}
	if !equalSig(sig, "v0="+hmacHex(secret, []byte("v0:"+ts+":"), body)) {
		return fmt.Errorf("%w: x-zm-signature does not match", ErrBadSignature)
	}
	return nil
}
