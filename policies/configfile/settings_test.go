package configfile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/policies/boundedfile"
	"github.com/retrysim/retrysim/policies/configfile"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{configfile.EnvName("demo-ttl"), "RETRYSIM_DEMO_TTL"},
		{configfile.EnvName("events"), "RETRYSIM_EVENTS"},
		{configfile.SecretEnv("standard-webhooks"), "RETRYSIM_SECRET_STANDARD_WEBHOOKS"},
		{configfile.SecretEnv("stripe"), "RETRYSIM_SECRET_STRIPE"},
		// demo's --ttl is how long its handler keeps a key, as run's
		// --demo-ttl is; run's --ttl is something else.
		{configfile.Key("demo", "ttl"), "demo-ttl"},
		{configfile.Key("run", "ttl"), "ttl"},
		{configfile.Key("demo", "mode"), "mode"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTextSpellsAValueAsTheCommandLineWould(t *testing.T) {
	for _, tc := range []struct {
		raw  any
		want string
	}{
		{"stripe", "stripe"},
		{[]any{"stripe", "github"}, "stripe,github"},
		{1e6, "1000000"}, // not 1e+06
		{2.5, "2.5"},
		{true, "true"},
		{[]any{1.0, []any{"a", "b"}}, "1,a,b"},
	} {
		if got := configfile.Text(tc.raw); got != tc.want {
			t.Errorf("Text(%#v) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestSourcePointsAtWhereTheValueCameFrom(t *testing.T) {
	lines := map[string]int{"events": 3}
	if got := configfile.Source("events", "retrysim.yaml", lines, env(nil)); got != "retrysim.yaml:3: events" {
		t.Errorf("from the file: %q", got)
	}
	if got := configfile.Source("over", "retrysim.yaml", lines, env(nil)); got != "retrysim.yaml: over" {
		t.Errorf("no line known: %q", got)
	}
	// The environment beats the file, so an error names the variable.
	if got := configfile.Source("events", "retrysim.yaml", lines, env(map[string]string{"RETRYSIM_EVENTS": "5"})); got != "RETRYSIM_EVENTS" {
		t.Errorf("from the environment: %q", got)
	}
}

func TestUntrusted(t *testing.T) {
	for _, tc := range []struct {
		name, command, flag string
		explicit            bool
		env                 map[string]string
		note, err           string
	}{
		{name: "a setting", command: "run", flag: "events"},
		{name: "exec from a file found", command: "run", flag: "exec",
			err: "SRC: exec is taken only from --exec or from a config file named with --config, so that running retrysim in a directory never runs a command it names"},
		{name: "exec from the environment", command: "run", flag: "exec", explicit: true, env: map[string]string{"RETRYSIM_EXEC": "rm -rf /"},
			err: "SRC: exec is taken only from --exec or from a config file named with --config, so that running retrysim in a directory never runs a command it names"},
		{name: "exec from a file named", command: "run", flag: "exec", explicit: true},
		{name: "results from a file found", command: "run", flag: "results",
			note: "SRC: ignored: where retrysim writes is taken only from --results, RETRYSIM_RESULTS or a config file named with --config, so that running retrysim in a directory never writes where a file there says"},
		{name: "results from the environment", command: "run", flag: "results", env: map[string]string{"RETRYSIM_RESULTS": "r.jsonl"}},
		{name: "results from a file named", command: "run", flag: "results", explicit: true},
		{name: "policies' chart is a file", command: "policies", flag: "chart",
			note: "SRC: ignored: where retrysim writes is taken only from --chart, RETRYSIM_CHART or a config file named with --config, so that running retrysim in a directory never writes where a file there says"},
		{name: "run's chart is a kind", command: "run", flag: "chart"},
		{name: "demo's db", command: "demo", flag: "db",
			note: "SRC: ignored: where retrysim writes is taken only from --db, RETRYSIM_DB or a config file named with --config, so that running retrysim in a directory never writes where a file there says"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			note, err := configfile.Untrusted(tc.command, tc.flag, "SRC", tc.explicit, env(tc.env))
			if note != tc.note {
				t.Errorf("note %q, want %q", note, tc.note)
			}
			if got := ""; err != nil {
				got = err.Error()
				if got != tc.err {
					t.Errorf("err %q, want %q", got, tc.err)
				}
			} else if tc.err != "" {
				t.Errorf("no error, want %q", tc.err)
			}
		})
	}
}

func TestReadFileRefusesAFileOverTheCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(path, make([]byte, configfile.MaxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := configfile.ReadFile(path)
	var tl *boundedfile.TooLargeError
	if !errors.As(err, &tl) || !strings.HasSuffix(err.Error(), " is larger than 4 MiB: not a config file") {
		t.Fatalf("err = %v", err)
	}
	if err := os.WriteFile(path, []byte("events: 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := configfile.ReadFile(path); err != nil || string(data) != "events: 3\n" {
		t.Fatalf("a small file: %q, %v", data, err)
	}
}
