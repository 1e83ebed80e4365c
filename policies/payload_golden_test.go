package policies

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the captured payloads under testdata/payloads")

// capturedEvent is the event every captured payload is built from: one
// fixed seed, one fixed time, and an object, so that the object-derived ids
// are in the capture too.
func capturedEvent(w Wire, typ string) Event {
	ev := Event{Seq: 3, Seed: 0x5eed_c0de, Type: typ, Created: time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC), Object: "object-1"}
	w.NewEvent(&ev)
	return ev
}

// payloadFile is where the captured payload of wire name and event type typ
// is kept: testdata/payloads/<wire>/<type>.<json|form>.
func payloadFile(name, typ, contentType string) string {
	ext := ".json"
	if strings.HasPrefix(contentType, "application/x-www-form-urlencoded") {
		ext = ".form"
	}
	return filepath.Join("testdata", "payloads", name, strings.ReplaceAll(typ, "/", "_")+ext)
}

// TestPayloadsAsCaptured: every wire's body for every event type it sends is
// byte for byte the captured one, so a payload changes only on purpose
// (go test -update rewrites the captures, and the diff shows the change).
// The captures are also what CI type-checks against the providers'
// published types (.ci/typecheck).
func TestPayloadsAsCaptured(t *testing.T) {
	for _, name := range WireNames() {
		w, _ := WireFor(name)
		types := EventTypes(w)
		if types == nil {
			types = []string{w.DefaultEventType()}
		}
		versions := []string{""}
		if v, ok := w.(Versioner); ok {
			versions = append(versions, v.APIVersions()[1:]...) // older versions kept as a choice
		}
		for _, version := range versions {
			dir := name
			if version != "" {
				dir += "@" + version
			}
			for _, typ := range types {
				t.Run(dir+"/"+typ, func(t *testing.T) {
					ev := capturedEvent(w, typ)
					ev.Version = version
					body, ctype := w.Body(ev)
					file := payloadFile(dir, typ, ctype)
					if *update {
						if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(file, body, 0o644); err != nil {
							t.Fatal(err)
						}
						return
					}
					want, err := os.ReadFile(file)
					if err != nil {
						t.Fatalf("no captured payload (go test ./policies -run TestPayloadsAsCaptured -update): %v", err)
					}
					if !bytes.Equal(body, want) {
						t.Errorf("the %s %s body is not the captured one\n got: %s\nwant: %s", dir, typ, body, want)
					}
				})
			}
		}
	}
}

// TestNoHTMLEscaping: no wire writes <, > or & as Go's \u003c, \u003e and
// \u0026 (no provider does), and Slack's mention arrives as Slack writes it.
func TestNoHTMLEscaping(t *testing.T) {
	for _, name := range WireNames() {
		w, _ := WireFor(name)
		types := EventTypes(w)
		if types == nil {
			types = []string{w.DefaultEventType()}
		}
		for _, typ := range types {
			body, _ := w.Body(capturedEvent(w, typ))
			for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
				if bytes.Contains(body, []byte(esc)) {
					t.Errorf("%s %s: the body escapes HTML (%s): %s", name, typ, esc, body)
				}
			}
		}
	}
	w, _ := WireFor("slack")
	if body, _ := w.Body(capturedEvent(w, "app_mention")); !bytes.Contains(body, []byte(`"text":"<@U0DEMOBOT> `)) {
		t.Errorf("slack app_mention: the mention is not written as <@U0DEMOBOT>: %s", body)
	}
}
