package main

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// leakMark is the middle of the test secret: every spelling of the secret
// (escaped for markdown, XML, JSON, a URL's query or userinfo) contains
// it, so it must appear nowhere.
const leakMark = "Zq9Kx"

// awkwardSecret has the characters each format escapes: _ for markdown,
// < and & for XML and HTML, / for URLs.
const awkwardSecret = "whsec_" + leakMark + "<b&c/d_e>f"

// TestSecretsInEveryFormat: a secret given with --secret, which also sits
// in the --url's userinfo and query, appears in no format of the report,
// the results, or stderr, escaped or not.
func TestSecretsInEveryFormat(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(200) }))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/hook")
	u.User = url.UserPassword("hook", awkwardSecret)
	u.RawQuery = "token=" + url.QueryEscape(awkwardSecret)
	for _, format := range []string{"text", "json", "markdown", "csv", "junit"} {
		t.Run(format, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "3", "--url", u.String(),
				"--secret", "stripe=" + awkwardSecret, "--results", "res.jsonl", "--format", format, "--fail-on", "lost-events"}
			code, out, errs := runCLI(t, dir, args...)
			if code != 0 && code != exitGate {
				t.Fatalf("exit %d: %s", code, errs)
			}
			res, _ := os.ReadFile(filepath.Join(dir, "res.jsonl"))
			for what, s := range map[string]string{"report": out, "stderr": errs, "results": string(res)} {
				if i := strings.Index(s, leakMark); i >= 0 {
					t.Errorf("the secret appears in the %s: …%s…", what, s[max(0, i-30):min(len(s), i+30)])
				}
			}
			if !strings.Contains(string(res), `"target":"http://hook:`) {
				t.Errorf("the results' target does not name the handler: %.300s", res)
			}
		})
	}
}

// TestReplayMasksURLPassword: replay shows its target with the userinfo's
// password masked, in text and JSON, though it sends it.
func TestReplayMasksURLPassword(t *testing.T) {
	dir := replayCaptureDir(t)
	var sent atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, p, ok := r.BasicAuth(); ok {
			sent.Store(p)
		}
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL + "/webhooks/stripe")
	u.User = url.UserPassword("hook", awkwardSecret)
	for _, format := range []string{"text", "json"} {
		code, out, errs := runCLI(t, dir, "replay", "--request", "stripe.http", "--times", "2", "--url", u.String(), "--format", format)
		if code != 0 && code != exitGate {
			t.Fatalf("%s: exit %d: %s", format, code, errs)
		}
		if strings.Contains(out+errs, leakMark) || !strings.Contains(out, "hook:xxxxx@127.0.0.1") {
			t.Errorf("%s: the target is not shown masked:\n%s\n%s", format, out, errs)
		}
	}
	if sent.Load() != awkwardSecret {
		t.Errorf("the handler got password %v, want the URL's", sent.Load())
	}
}

// TestReplayTextIsPrintable: an effects oracle's reason phrase with
// terminal escapes reaches replay's report escaped.
func TestReplayTextIsPrintable(t *testing.T) {
	dir := replayCaptureDir(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			c, buf, _ := w.(http.Hijacker).Hijack()
			buf.WriteString("HTTP/1.1 500 \x1b]0;pwned\x07\x1b[2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
			c.Close()
		}
	}))
	defer srv.Close()
	for _, format := range []string{"text", "json"} {
		_, out, errs := runCLI(t, dir, "replay", "--request", "stripe.http", "--times", "2", "--url", srv.URL+"/webhooks/stripe",
			"--effects-url", srv.URL+"/effects", "--format", format)
		if strings.ContainsAny(out+errs, "\x1b\x07") {
			t.Errorf("%s: the handler's terminal escapes reach the output: %q", format, out+errs)
		}
	}
}

// replayCaptureDir is a fresh directory holding stripe.http, the captured
// delivery of the replay script (testdata/script/replay.txtar).
func replayCaptureDir(t *testing.T) string {
	t.Helper()
	ar, err := txtar.ParseFile("testdata/script/replay.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range ar.Files {
		if f.Name == "stripe.http" {
			if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		}
	}
	t.Fatal("testdata/script/replay.txtar holds no stripe.http")
	return ""
}
