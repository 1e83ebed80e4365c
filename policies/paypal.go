package policies

import (
	"crypto"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"hash/crc32"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// paypalCertURL is the PAYPAL-CERT-URL retrysim sends. PayPal's real
// certificate cannot sign retrysim's requests; a handler that downloads the
// certificate from here cannot verify them (see PayPalPublicKeyPEM).
const paypalCertURL = "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-retrysim"

type paypalWire struct{}

func init() { RegisterWire(paypalWire{}) }

func (paypalWire) Name() string             { return "paypal" }
func (paypalWire) DefaultEventType() string { return "PAYMENT.CAPTURE.COMPLETED" }

// paypalTypes are the event types the PayPal wire sends, the default first.
var paypalTypes = []string{"PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.REFUNDED", "CHECKOUT.ORDER.APPROVED", "BILLING.SUBSCRIPTION.ACTIVATED"}

func (paypalWire) EventTypes() []string { return paypalTypes }

// NewEvent makes the PAYPAL-TRANSMISSION-ID, the dedup id, the same on every
// attempt.
func (paypalWire) NewEvent(ev *Event) {
	r := Key(ev.Seed, 1, 0)
	ev.ID = r.UUID()
}

// NewSecret makes a webhook id, the value PayPal signs with each request and
// the handler knows from its configuration.
func (paypalWire) NewSecret(r *Rand) string { return strings.ToUpper(r.Hex(9))[:17] }

// PublicKey is the PEM public key of retrysim's stand-in for PayPal's
// certificate; the secret (the webhook id) does not change it.
func (paypalWire) PublicKey(string) string { return PayPalPublicKeyPEM() }

// KeyNote says what stands in for PayPal's certificate.
func (paypalWire) KeyNote() string {
	return "retrysim signs with this key in place of PayPal's certificate: the PAYPAL-CERT-URL it sends (" + paypalCertURL +
		") serves no certificate, so configure your handler to verify with this key instead of downloading one"
}

// paypalEvent is a PayPal webhook event; paypalResource the resource it is
// about, whose fields depend on its type. Fields in alphabetical order.
type paypalEvent struct {
	CreateTime      string         `json:"create_time"`
	EventType       string         `json:"event_type"`
	EventVersion    string         `json:"event_version"`
	ID              string         `json:"id"`
	Links           []paypalLink   `json:"links"`
	Resource        paypalResource `json:"resource"`
	ResourceType    string         `json:"resource_type"`
	ResourceVersion string         `json:"resource_version"`
	Summary         string         `json:"summary"`
}

type paypalResource struct {
	Amount            *paypalMoney         `json:"amount,omitempty"`
	CreateTime        string               `json:"create_time"`
	FinalCapture      *bool                `json:"final_capture,omitempty"`
	ID                string               `json:"id"`
	Intent            string               `json:"intent,omitempty"`
	Links             []paypalLink         `json:"links,omitempty"`
	PlanID            string               `json:"plan_id,omitempty"`
	PurchaseUnits     []paypalUnit         `json:"purchase_units,omitempty"`
	Status            string               `json:"status"`
	SupplementaryData *paypalSupplementary `json:"supplementary_data,omitempty"`
	UpdateTime        string               `json:"update_time,omitempty"`
}

type paypalMoney struct {
	CurrencyCode string `json:"currency_code"`
	Value        string `json:"value"`
}

type paypalLink struct {
	Href   string `json:"href"`
	Method string `json:"method"`
	Rel    string `json:"rel"`
}

type paypalUnit struct {
	Amount      paypalMoney `json:"amount"`
	ReferenceID string      `json:"reference_id"`
}

type paypalSupplementary struct {
	RelatedIDs struct {
		OrderID string `json:"order_id"`
	} `json:"related_ids"`
}

func (paypalWire) Body(ev Event) ([]byte, string) {
	r := Key(ev.Seed, 2, 0)
	at := ev.Created.UTC().Format("2006-01-02T15:04:05.000Z")
	amount := fmt.Sprintf("%d.%02d", 5+r.IntN(195), r.IntN(100))
	money := paypalMoney{CurrencyCode: "USD", Value: amount}
	final := true
	resourceType, summary := "capture", "Payment completed for $ "+amount+" USD"
	resource := paypalResource{ID: strings.ToUpper(r.Hex(9))[:17], Amount: &money, Status: "COMPLETED", CreateTime: at, UpdateTime: at, FinalCapture: &final}
	switch ev.Type {
	case "PAYMENT.CAPTURE.REFUNDED":
		resourceType, summary = "refund", "A $ "+amount+" USD capture payment was refunded"
		resource.FinalCapture = nil
	case "CHECKOUT.ORDER.APPROVED":
		resourceType, summary = "checkout-order", "An order has been approved by buyer"
		resource = paypalResource{ID: strings.ToUpper(r.Hex(9))[:17], Intent: "CAPTURE", Status: "APPROVED", CreateTime: at,
			PurchaseUnits: []paypalUnit{{ReferenceID: "default", Amount: money}}}
	case "BILLING.SUBSCRIPTION.ACTIVATED":
		resourceType, summary = "subscription", "Subscription activated"
		resource = paypalResource{ID: "I-" + strings.ToUpper(r.Alnum(12)), PlanID: "P-" + strings.ToUpper(r.Alnum(24)), Status: "ACTIVE", CreateTime: at}
	}
	if o, ok := objectRand(ev, 0x99); ok {
		// The event is about one order (a capture's order, the order
		// approved), one capture (a refund's) or one subscription: the
		// same id on every event about it.
		objectID := strings.ToUpper(o.Hex(9))[:17]
		switch resourceType {
		case "capture":
			resource.SupplementaryData = &paypalSupplementary{}
			resource.SupplementaryData.RelatedIDs.OrderID = objectID
		case "refund":
			resource.Links = []paypalLink{{Href: "https://api.paypal.com/v2/payments/captures/" + objectID, Rel: "up", Method: "GET"}}
		case "subscription":
			resource.ID = "I-" + strings.ToUpper(o.Alnum(12))
		default: // checkout-order
			resource.ID = objectID
		}
	}
	eventID := "WH-" + strings.ToUpper(r.Alnum(17)) + "-" + strings.ToUpper(r.Alnum(17))
	body := marshalBody(paypalEvent{
		ID: eventID, EventVersion: "1.0", CreateTime: at, ResourceType: resourceType,
		ResourceVersion: "2.0", EventType: ev.Type, Summary: summary, Resource: resource,
		Links: []paypalLink{{Href: "https://api.paypal.com/v1/notifications/webhooks-events/" + eventID, Rel: "self", Method: "GET"}},
	})
	return body, "application/json"
}

// paypalMessage is what PayPal signs: transmission id, time, webhook id and
// the CRC32 of the body in decimal, joined by "|".
func paypalMessage(id, at, webhookID string, body []byte) []byte {
	return []byte(id + "|" + at + "|" + webhookID + "|" + strconv.FormatUint(uint64(crc32.ChecksumIEEE(body)), 10))
}

func (paypalWire) Header(h http.Header, d Delivery) {
	at := d.SignedAt.UTC().Format(time.RFC3339)
	sum := sha256.Sum256(paypalMessage(d.Event.ID, at, d.Secret, d.Body))
	sig, err := rsa.SignPKCS1v15(nil, paypalKey(), crypto.SHA256, sum[:])
	if err != nil {
		panic("policies: PayPal signature: " + err.Error())
	}
	h.Set("User-Agent", "PayPal/AUHR-214.0-58384719")
	h.Set("PAYPAL-TRANSMISSION-ID", d.Event.ID)
	h.Set("PAYPAL-TRANSMISSION-TIME", at)
	h.Set("PAYPAL-TRANSMISSION-SIG", base64.StdEncoding.EncodeToString(sig))
	h.Set("PAYPAL-CERT-URL", paypalCertURL)
	h.Set("PAYPAL-AUTH-ALGO", "SHA256withRSA")
	h.Set("PAYPAL-AUTH-VERSION", "v2")
}

func (paypalWire) DedupField() string { return "PAYPAL-TRANSMISSION-ID header" }

func (paypalWire) DedupID(h http.Header, _ []byte) (string, error) {
	if id := h.Get("PAYPAL-TRANSMISSION-ID"); id != "" {
		return id, nil
	}
	return "", fmt.Errorf("paypal: no PAYPAL-TRANSMISSION-ID header")
}

// Verify checks the signature with retrysim's stand-in key, the way a
// handler that verifies locally checks it with PayPal's certificate; secret
// is the webhook id.
func (paypalWire) Verify(h http.Header, body []byte, _, secret string, _ time.Time) error {
	id, at := h.Get("PAYPAL-TRANSMISSION-ID"), h.Get("PAYPAL-TRANSMISSION-TIME")
	sig, err := base64.StdEncoding.DecodeString(h.Get("PAYPAL-TRANSMISSION-SIG"))
	if id == "" || at == "" || err != nil || len(sig) == 0 {
		return fmt.Errorf("%w: PAYPAL-TRANSMISSION-ID, -TIME or -SIG missing", ErrBadSignature)
	}
	sum := sha256.Sum256(paypalMessage(id, at, secret, body))
	if err := rsa.VerifyPKCS1v15(&paypalKey().PublicKey, crypto.SHA256, sum[:], sig); err != nil {
		return fmt.Errorf("%w: PAYPAL-TRANSMISSION-SIG does not verify", ErrBadSignature)
	}
	return nil
}
