package policies

import "testing"

func TestProviderInURL(t *testing.T) {
	for _, c := range []struct {
		url, want string
	}{
		{"http://127.0.0.1:3000/webhooks/stripe", "stripe"},
		{"http://localhost:8080/api/github-events", "github"},
		{"http://127.0.0.1/hooks/Shopify_orders?x=1", "shopify"},
		{"http://127.0.0.1/stripe/webhook", "stripe"},
		{"http://127.0.0.1/webhooks/discord-events", "discord-events"},
		{"http://127.0.0.1/webhooks/standard-webhooks", "standard-webhooks"},
		{"http://127.0.0.1/webhooks/discord", "discord"},
		// Not a word of its own, two providers, none, or only in the host.
		{"http://127.0.0.1/webhooks/stripes", ""},
		{"http://127.0.0.1/webhooks/restripe", ""},
		{"http://127.0.0.1/webhooks/stripe-to-github", ""},
		{"http://127.0.0.1/webhooks", ""},
		{"http://stripe.localhost/webhooks", ""},
		{"::not a url", ""},
	} {
		got, ok := ProviderInURL(c.url)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("ProviderInURL(%q) = %q, %v; want %q", c.url, got, ok, c.want)
		}
	}
}

// FuzzProviderInURL: no URL makes it panic, and a name it returns is a
// wire's.
func FuzzProviderInURL(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1/webhooks/stripe", "http://x/discord-events/discord", "%zz", "/a/b-c_d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if name, ok := ProviderInURL(s); ok {
			if _, known := WireFor(name); !known {
				t.Fatalf("ProviderInURL(%q) = %q, not a wire", s, name)
			}
		}
	})
}
