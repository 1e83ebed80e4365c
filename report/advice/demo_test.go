package advice_test

import (
	"bytes"
	"errors"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/simulator/demo"
)

// TestDemoListen: an address that is no host:port, or off this machine,
// is said with what to give instead.
func TestDemoListen(t *testing.T) {
	if advice.DemoListen("127.0.0.1:8080", nil) != nil {
		t.Error("nil became an error")
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{demo.ErrNotHostPort, "--addr 8080: give host:port to listen on, e.g. 127.0.0.1:8080"},
		{demo.ErrNotLoopback, "--addr 8080 is not a loopback address (127.0.0.1, ::1, localhost): the demo handler would take requests from other machines; pass --allow-remote to listen on it"},
		{errors.New("boom"), "--addr: boom"},
	} {
		if got := advice.DemoListen("8080", tc.err).Error(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}

// TestDemoBannerNeverPrintsAGivenSecret: the banner says where to send
// webhooks and read effects, prints the secrets 'run --seed' generates,
// and for a secret the user gave only where it came from.
func TestDemoBannerNeverPrintsAGivenSecret(t *testing.T) {
	var b bytes.Buffer
	addr := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}
	advice.DemoBanner(&b, demo.Naive, addr, 7, map[string]string{"stripe": "from RETRYSIM_SECRET_STRIPE"})
	out := b.String()
	if !strings.HasPrefix(out, "demo handler (naive) on http://127.0.0.1:8080\n  webhooks: POST http://127.0.0.1:8080"+demo.WebhookPath+"<provider>\n") {
		t.Errorf("banner:\n%s", out)
	}
	if !regexp.MustCompile(`\n    stripe +\(from RETRYSIM_SECRET_STRIPE\)\n`).MatchString(out) {
		t.Errorf("the given secret's source is not said:\n%s", out)
	}
	// The secrets stand in one column, after the longest provider's name.
	col := -1
	for line := range strings.SplitSeq(out, "\n") {
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "    "), " ")
		if !strings.HasPrefix(line, "    ") || !ok {
			continue
		}
		at := 4 + len(name) + 1 + len(rest) - len(strings.TrimLeft(rest, " "))
		if col >= 0 && at != col {
			t.Errorf("%s's secret starts in column %d, the others' in %d:\n%s", name, at, col, out)
		}
		col = at
	}
	if strings.Contains(out, policies.GenerateSecret("stripe", 7)) {
		t.Errorf("the generated stripe secret is printed though one was given:\n%s", out)
	}
	if !regexp.MustCompile(`\n    github +` + regexp.QuoteMeta(policies.GenerateSecret("github", 7)) + `\n`).MatchString(out) {
		t.Errorf("github's generated secret is not printed:\n%s", out)
	}
	if got, want := strings.Count(out, "\n    "), len(policies.WireNames()); got != want {
		t.Errorf("%d secret lines, want one per provider (%d)", got, want)
	}
}
