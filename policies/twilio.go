package policies

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"hash"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"
)

// twilioAccountSid is the AccountSid of the simulated Twilio account.
const twilioAccountSid = "AC0d3c5e7a9b1c2d3e4f5a6b7c8d9e0f1a"

type twilioWire struct{}

// twilioSid is the event's MessageSid: the message the status callback is
// about, from the event's object when it names one, so every callback about
// one message carries its sid.
func twilioSid(ev Event) string {
	r, ok := objectRand(ev, 0x7c)
	if !ok {
		r = Key(ev.Seed, 3, 0)
	}
	return "SM" + r.Hex(16)
}

func init() { RegisterWire(twilioWire{}) }

func (twilioWire) Name() string             { return "twilio" }
func (twilioWire) DefaultEventType() string { return "delivered" }

// NewEvent makes the event's I-Twilio-Idempotency-Token, its dedup id, the
// same on every attempt (Twilio's docs leave open whether it is; retrysim
// assumes it is, as the header's name says).
func (twilioWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

func (twilioWire) NewSecret(r *Rand) string { return r.Hex(16) }

// twilioStatuses are the MessageStatus values the Twilio wire sends, the
// default first.
var twilioStatuses = []string{"delivered", "queued", "sent", "undelivered", "failed", "read"}

func (twilioWire) EventTypes() []string { return twilioStatuses }

func twilioParams(ev Event) url.Values {
	r := Key(ev.Seed, 2, 0)
	to := r.IntN(10000)
	if o, ok := objectRand(ev, 0x7d); ok {
		to = o.IntN(10000) // one message, one recipient
	}
	sid := twilioSid(ev)
	v := url.Values{
		"AccountSid":    {twilioAccountSid},
		"ApiVersion":    {"2010-04-01"},
		"From":          {"+15005550006"},
		"MessageSid":    {sid},
		"MessageStatus": {ev.Type},
		"SmsSid":        {sid},
		"SmsStatus":     {ev.Type},
		"To":            {fmt.Sprintf("+1415555%04d", to)},
	}
	if ev.Type == "undelivered" || ev.Type == "failed" {
		v.Set("ErrorCode", "30003") // Unreachable destination handset
	}
	return v
}

func (twilioWire) Body(ev Event) ([]byte, string) {
	return []byte(twilioParams(ev).Encode()), "application/x-www-form-urlencoded"
}

// twilioSignature is base64(HMAC-SHA1(token, url + each param's key and value,
// sorted by key)), as twilio-go's RequestValidator computes it.
func twilioSignature(token, fullURL string, params url.Values) string {
	return twilioSign(sha1.New, token, fullURL, params)
}

// twilioSign is base64(HMAC(key, url + each param's key and value, sorted by
// key)) with the hash h: SHA-1 with the Auth Token, or SHA-256 with a
// shared key (twilioSharedKeyWire).
func twilioSign(h func() hash.Hash, key, fullURL string, params url.Values) string {
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(fullURL)
	for _, k := range keys {
		for _, v := range params[k] {
			b.WriteString(k)
			b.WriteString(v)
		}
	}
	m := hmac.New(h, []byte(key))
	m.Write([]byte(b.String()))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func (twilioWire) Header(h http.Header, d Delivery) {
	params, _ := url.ParseQuery(string(d.Body))
	h.Set("User-Agent", "TwilioProxy/1.1")
	h.Set("I-Twilio-Idempotency-Token", d.Event.ID)
	h.Set("X-Twilio-Signature", twilioSignature(d.Secret, d.URL, params))
}

func (twilioWire) DedupField() string { return "I-Twilio-Idempotency-Token header" }

func (twilioWire) DedupID(h http.Header, body []byte) (string, error) {
	if t := h.Get("I-Twilio-Idempotency-Token"); t != "" {
		return t, nil
	}
	params, err := url.ParseQuery(string(body))
	if err == nil && params.Get("MessageSid") != "" {
		return params.Get("MessageSid") + "/" + params.Get("MessageStatus"), nil
	}
	return "", fmt.Errorf("twilio: no I-Twilio-Idempotency-Token header or MessageSid")
}

func (twilioWire) Verify(h http.Header, body []byte, fullURL, secret string, _ time.Time) error {
	got := h.Get("X-Twilio-Signature")
	if got == "" {
		return fmt.Errorf("%w: X-Twilio-Signature header missing", ErrBadSignature)
	}
	params, err := url.ParseQuery(string(body))
	if err != nil {
		return fmt.Errorf("%w: body is not form-encoded", ErrBadSignature)
	}
	if !equalSig(got, twilioSignature(secret, fullURL, params)) {
		return fmt.Errorf("%w: X-Twilio-Signature does not match", ErrBadSignature)
	}
	return nil
}
