package policies

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// twilioSharedKeyWire is Twilio's Webhooks configuration (public beta,
// 2026): a Webhook Rule whose URL pattern matches the callback URL applies
// a Setting that signs with a SharedKey instead of the Auth Token. The
// signed string is unchanged (the URL, then each form parameter's name and
// value, sorted); the hash is HMAC-SHA256, base64 in X-Twilio-Signature;
// and X-Twilio-Webhooks-Signature-Settings names the key and the
// algorithm, so a handler knows to check with the shared key (twilio-node
// 6.3: getSignatureAlgorithm, validateRequest with HMAC_SHA256). The
// callbacks are otherwise those of twilioWire.
type twilioSharedKeyWire struct{ twilioWire }

func init() { RegisterWire(twilioSharedKeyWire{}) }

func (twilioSharedKeyWire) Name() string { return "twilio-shared-key" }

// The algorithm names X-Twilio-Webhooks-Signature-Settings carries, as
// twilio-node spells them.
const (
	twilioHMACSHA1   = "HMAC_SHA1"
	twilioHMACSHA256 = "HMAC_SHA256"
)

// NewSecret makes a SharedKey secret. Twilio's docs show no secret, so its
// shape (32 letters and digits) is an assumption.
func (twilioSharedKeyWire) NewSecret(r *Rand) string { return r.Alnum(32) }

// twilioSharedKeyID is the SharedKey's id the settings header names,
// derived from the secret so that one key keeps one id: webhooks_sharedkey_
// and 26 characters (the form twilio-node's example and the docs' Setting
// ids have).
func twilioSharedKeyID(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	const digits = "0123456789abcdefghijklmnopqrstuvwxyz"
	var b strings.Builder
	b.WriteString("webhooks_sharedkey_")
	for _, c := range sum[:26] {
		b.WriteByte(digits[int(c)%len(digits)])
	}
	return b.String()
}

func (twilioSharedKeyWire) Header(h http.Header, d Delivery) {
	params, _ := url.ParseQuery(string(d.Body))
	h.Set("User-Agent", "TwilioProxy/1.1")
	h.Set("I-Twilio-Idempotency-Token", d.Event.ID)
	h.Set("X-Twilio-Signature", twilioSign(sha256.New, d.Secret, d.URL, params))
	h.Set("X-Twilio-Webhooks-Signature-Settings", "key="+twilioSharedKeyID(d.Secret)+",algorithm="+twilioHMACSHA256)
}

// twilioAlgorithm reads the algorithm X-Twilio-Webhooks-Signature-Settings
// names, as twilio-node's getSignatureAlgorithm does: HMAC_SHA1 when the
// header or its algorithm= is missing.
func twilioAlgorithm(settings string) string {
	for _, part := range strings.Split(settings, ",") {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.TrimSpace(k) == "algorithm" && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return twilioHMACSHA1
}

// Verify checks X-Twilio-Signature with the shared key and the algorithm
// the settings header names, as twilio-node's webhook middleware does with
// a sharedKeySecret: a request without the header would be checked with
// the Auth Token, which this handler does not hold.
func (twilioSharedKeyWire) Verify(h http.Header, body []byte, fullURL, secret string, _ time.Time) error {
	got, settings := h.Get("X-Twilio-Signature"), h.Get("X-Twilio-Webhooks-Signature-Settings")
	if got == "" || settings == "" {
		return fmt.Errorf("%w: X-Twilio-Signature or X-Twilio-Webhooks-Signature-Settings missing", ErrBadSignature)
	}
	if alg := twilioAlgorithm(settings); !strings.EqualFold(alg, twilioHMACSHA256) {
		return fmt.Errorf("%w: X-Twilio-Webhooks-Signature-Settings names %s, not %s", ErrBadSignature, alg, twilioHMACSHA256)
	}
	params, err := url.ParseQuery(string(body))
	if err != nil {
		return fmt.Errorf("%w: body is not form-encoded", ErrBadSignature)
	}
	if !equalSig(got, twilioSign(sha256.New, secret, fullURL, params)) {
		return fmt.Errorf("%w: X-Twilio-Signature does not match", ErrBadSignature)
	}
	return nil
}

func (twilioSharedKeyWire) Scheme() Scheme {
	return Scheme{Headers: []string{"X-Twilio-Signature", "X-Twilio-Webhooks-Signature-Settings"}, Covers: CoversParams}
}

// Claims: a shared-key delivery names its key in
// X-Twilio-Webhooks-Signature-Settings.
func (twilioSharedKeyWire) Claims(h http.Header, _ []byte) bool {
	return h.Get("X-Twilio-Webhooks-Signature-Settings") != ""
}

// Claims: an Auth Token delivery has no X-Twilio-Webhooks-Signature-Settings.
func (twilioWire) Claims(h http.Header, _ []byte) bool {
	return h.Get("X-Twilio-Webhooks-Signature-Settings") == ""
}
