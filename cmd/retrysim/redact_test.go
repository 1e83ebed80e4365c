package main

import (
	"bytes"
	"context"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/report/redact"
)

// TestSecretsNeverWritten runs the command with a known secret that also
// appears where output would echo it (in the target URL and in a bad flag
// value), and looks for it in everything the command writes: report,
// results file, messages and errors.
func TestSecretsNeverWritten(t *testing.T) {
	const secret = "whsec_N3verPr1ntMe+/="
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(srv.Close)
	target := srv.URL + "/hook?token=" + url.QueryEscape(secret) + "&raw=" + secret
	dir := t.TempDir()
	results := filepath.Join(dir, "results.jsonl")
	cases := []struct {
		name string
		args []string
		code int
	}{
		{"text report and results", []string{"--url", target, "--results", results}, exitOK},
		{"JSON report", []string{"--url", target, "--format", "json"}, exitOK},
		{"results on stdout", []string{"--url", target, "--results", "-"}, exitOK},
		{"secret in a bad URL", []string{"--url", "ftp://" + secret}, exitBadInput},
		{"secret in a bad effects URL", []string{"--url", target, "--effects-url", "http://[" + secret}, exitBadInput},
		{"secret given twice, once malformed", []string{"--secret", "nope=" + secret, "--url", "ftp://" + secret}, exitBadInput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "3",
				"--secret", "stripe=" + secret}, tc.args...)
			code, stdout, stderr := runCLI(t, t.TempDir(), args...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			outputs := map[string]string{"stdout": stdout, "stderr": stderr}
			if data, err := os.ReadFile(results); err == nil {
				outputs["results file"] = string(data)
			}
			redactedSomewhere := false
			for name, s := range outputs {
				for _, form := range redact.Spellings(secret) {
					if strings.Contains(s, form) {
						t.Errorf("%s shows the secret (as %q)", name, form)
					}
				}
				redactedSomewhere = redactedSomewhere || strings.Contains(s, redact.Marker)
			}
			if !redactedSomewhere {
				t.Errorf("no output shows %s where the secret was: stdout\n%s\nstderr\n%s", redact.Marker, stdout, stderr)
			}
		})
	}
}

// TestPanicIsRedacted: a crash prints through the redactor and exits
// with the internal-error code, never the bad-input one.
func TestPanicIsRedacted(t *testing.T) {
	const secret = "whsec_panicking_secret"
	root := &cobra.Command{
		Use: "retrysim", SilenceErrors: true, SilenceUsage: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			secretsOf(cmd.Context()).Add(secret)
			panic("cannot sign with " + secret)
		},
	}
	var out, errb bytes.Buffer
	code := execute(context.Background(), root, nil, strings.NewReader(""), &out, &errb)
	if code != exitInternal {
		t.Fatalf("exit %d, want %d", code, exitInternal)
	}
	if strings.Contains(errb.String(), secret) {
		t.Fatalf("the crash report shows the secret:\n%s", errb.String())
	}
	if !strings.Contains(errb.String(), "internal error (a bug in retrysim): cannot sign with [REDACTED]") {
		t.Fatalf("crash report:\n%s", errb.String())
	}
}

// TestSecretsInErrorsAndLogs: a config file with an error elsewhere, an
// input file that is not what it was given as, and Go's own log lines
// never show a secret.
func TestSecretsInErrorsAndLogs(t *testing.T) {
	const secret = "whsec_ConfigSecret_0123456789"
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "retrysim.yaml"), []byte("secrets:\n  stripe: "+secret+"\npolicies:\n  x: {retries: "+secret+"}\n"), 0o644)
	code, _, errs := runCLI(t, dir, "run", "--dry-run")
	if code != exitBadInput || strings.Contains(errs, "ConfigSecret") || !strings.Contains(errs, "[REDACTED]") {
		t.Errorf("a config with an error: exit %d, stderr:\n%s", code, errs)
	}
	env := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(env, []byte("STRIPE_SECRET=whsec_EnvFileSecret_0123456789\nOTHER=1\n"), 0o644)
	for _, args := range [][]string{
		{"run", "--dry-run", "--scenario", env},
		{"replay", "--request", env, "--url", "http://127.0.0.1:9/x"},
	} {
		code, _, errs := runCLI(t, dir, args...)
		if code != exitBadInput || strings.Contains(errs, "EnvFileSecret") {
			t.Errorf("%s %s: exit %d, stderr:\n%s", args[0], env, code, errs)
		}
	}
	// A log line written while a command runs goes through the redactor.
	root := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error {
		log.Printf("Unsolicited response received on idle HTTP channel starting with %q", secret)
		return nil
	}}
	root.PersistentFlags().String("secret", "", "")
	root.PreRun = func(cmd *cobra.Command, _ []string) { secretsOf(cmd.Context()).Add(secret) }
	var out, errb bytes.Buffer
	execute(context.Background(), root, nil, strings.NewReader(""), &out, &errb)
	if strings.Contains(errb.String(), "ConfigSecret") || !strings.Contains(errb.String(), "Unsolicited response") {
		t.Errorf("a log line: %q", errb.String())
	}
}

// TestHandlerTextIsPrintable: an effects oracle whose reason phrase holds
// terminal escapes (ESC, OSC) cannot drive the terminal retrysim prints to.
func TestHandlerTextIsPrintable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			// A raw status line: Go's server would not send this reason.
			hj, _ := w.(http.Hijacker)
			c, buf, _ := hj.Hijack()
			buf.WriteString("HTTP/1.1 500 \x1b]0;pwned\x07\x1b[2J\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
			buf.Flush()
			c.Close()
			return
		}
		w.WriteHeader(200)
	}))
	defer srv.Close()
	_, out, errs := runCLI(t, t.TempDir(), "run", "--provider", "stripe", "--scenario", "happy", "--events", "2",
		"--url", srv.URL+"/hook", "--effects-url", srv.URL+"/effects", "--secret", "stripe=whsec_printable_test_secret")
	for what, s := range map[string]string{"report": out, "stderr": errs} {
		if strings.ContainsAny(s, "\x1b\x07") {
			t.Errorf("the %s carries the handler's terminal escapes: %q", what, s)
		}
	}
	if !strings.Contains(out+errs, `\x1b]0;pwned`) {
		t.Errorf("the reason phrase is not shown, escaped:\n%s\n%s", out, errs)
	}
}
