package advice_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report/advice"
)

// TestProxyProblems: proxy needs one provider, a handler to forward to, a
// loopback address to listen on, an --events cap the engine can take, a
// duration that is not negative and a captures directory that exists (a
// missing one is said to be missing, not to be no directory); each
// problem is its own line.
func TestProxyProblems(t *testing.T) {
	good := advice.Proxy{Providers: 1, ForwardTo: "http://127.0.0.1:3000/hooks", Listen: "127.0.0.1:4242", Captures: t.TempDir(), MaxEvents: 5, Duration: time.Minute}
	if errs := good.Problems(); errs != nil {
		t.Fatalf("good flags: %q", messages(errs))
	}
	sameLines(t, advice.Proxy{Providers: 2, Listen: "127.0.0.1:4242"}.Problems(),
		"--provider: name the one provider whose deliveries come in, e.g. --provider stripe",
		"--forward-to: give your handler's URL, e.g. http://127.0.0.1:3000/webhooks/stripe")
	bad := good
	bad.Listen, bad.MaxEvents, bad.Duration, bad.Captures = "8.8.8.8:1", -1, -time.Second, "no-such-dir"
	sameLines(t, bad.Problems(),
		"--listen: 8.8.8.8 is not a loopback address: the proxy listens only on this machine (127.0.0.1, ::1, localhost)",
		"--events: -1 is out of range (0 for no limit, up to 10000000)",
		"--duration: -1s is negative",
		"--captures: directory no-such-dir does not exist: create it first")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	notDir := good
	notDir.Captures = file
	sameLines(t, notDir.Problems(), "--captures: "+file+" is not a directory")
	if got, want := advice.ProxySecret("stripe").Error(), "--secret: give stripe=<your handler's secret>: retrysim checks each incoming delivery with it and signs every attempt with it (stripe listen prints its whsec_ secret)"; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
