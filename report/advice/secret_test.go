package advice_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
)

// TestSecretsNameThePairNotTheValue: a malformed --secret is named by its
// place, and its value is never repeated.
func TestSecretsNameThePairNotTheValue(t *testing.T) {
	got, err := advice.Secrets([]string{"stripe=whsec_good_secret_value_0123", "hunter2-no-provider"})
	if err == nil {
		t.Fatalf("a pair without provider= was taken: %v", got)
	}
	if !strings.HasPrefix(err.Error(), "--secret #2: ") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %q: want it to name pair #2 and not repeat its value", err)
	}
	got, err = advice.Secrets([]string{"stripe=whsec_good_secret_value_0123"})
	if err != nil || got["stripe"] != "whsec_good_secret_value_0123" {
		t.Errorf("a good pair: %v, %v", got, err)
	}
}

// TestSecretsNotRunHints: a --secret for a provider the run does not
// replay is refused, and when --provider was not given the hint says the
// default is what runs.
func TestSecretsNotRunHints(t *testing.T) {
	secrets := map[string]string{"github": "s", "stripe": "s"}
	pols := mustPolicies(t, "stripe")
	sameLines(t, advice.SecretsNotRun(secrets, pols, true),
		"--secret github=…: github is not among the providers this run replays (stripe); add --provider github")
	sameLines(t, advice.SecretsNotRun(secrets, pols, false),
		"--secret github=…: github is not among the providers this run replays (stripe); --provider is not given, so the default is run; add --provider github")
	if errs := advice.SecretsNotRun(map[string]string{"stripe": "s"}, pols, false); errs != nil {
		t.Errorf("a secret for the run: %q", messages(errs))
	}
}

// TestTellSecret: a generated secret is printed with where to give one; a
// generated private key is printed with the public key the handler needs;
// a secret the user gave is never printed, though its public key is.
func TestTellSecret(t *testing.T) {
	var b bytes.Buffer
	secret := policies.GenerateSecret("stripe", 5)
	advice.TellSecret(&b, "stripe", secret, true, 5)
	want := "retrysim: no secret given for stripe (--secret stripe=…, RETRYSIM_SECRET_STRIPE, or secrets: in retrysim.yaml): signing with one generated from --seed 5:\n  " +
		secret + "\n  configure your handler with it; the same seed gives the same secret\n"
	if b.String() != want {
		t.Errorf("generated stripe secret:\n%s\nwant\n%s", b.String(), want)
	}

	b.Reset()
	advice.TellSecret(&b, "stripe", "whsec_the_users_own_0123456789", false, 5)
	if b.Len() != 0 {
		t.Errorf("a secret the user gave was told: %q", b.String())
	}

	key := policies.GenerateSecret("paypal", 5)
	pub, keyed := policies.PublicKey("paypal", key)
	if !keyed {
		t.Skip("paypal no longer signs with a private key")
	}
	b.Reset()
	advice.TellSecret(&b, "paypal", key, true, 5)
	out := b.String()
	if !strings.HasPrefix(out, "retrysim: no private key given for paypal (--secret paypal=…, RETRYSIM_SECRET_PAYPAL, or secrets: in retrysim.yaml): signing with one generated from --seed 5:\n  "+key+"\n  (the same seed gives the same key; your handler does not need it)\n") {
		t.Errorf("generated paypal key:\n%s", out)
	}
	if !strings.Contains(out, "retrysim: paypal signs with a private key; configure your handler to verify with this public key:\n  "+strings.TrimSpace(strings.ReplaceAll(pub, "\n", "\n  "))+"\n") {
		t.Errorf("the public key is not told, indented:\n%s", out)
	}
	b.Reset()
	advice.TellSecret(&b, "paypal", key, false, 5)
	if strings.Contains(b.String(), key) || !strings.Contains(b.String(), "verify with this public key") {
		t.Errorf("a key the user gave: %q", b.String())
	}
}
