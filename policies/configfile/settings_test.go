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

// TestTrustOf: a command to run is taken only from a file named with
// --config and never from the environment; a path to write to, or the
// loopback guard turned off, is not taken from a file found in the
// working directory, unless the environment sets it; any other value is
// taken.
func TestTrustOf(t *testing.T) {
	for _, tc := range []struct {
		name, command, flag string
		explicit            bool
		env                 map[string]string
		want                configfile.Trust
	}{
		{"a setting", "run", "events", false, nil, configfile.Taken},
		{"exec from a file found", "run", "exec", false, nil, configfile.RunsCommand},
		{"exec from the environment", "run", "exec", true, map[string]string{"RETRYSIM_EXEC": "rm -rf /"}, configfile.RunsCommand},
		{"exec from a file named", "run", "exec", true, nil, configfile.Taken},
		{"results from a file found", "run", "results", false, nil, configfile.WritesHere},
		{"results from the environment", "run", "results", false, map[string]string{"RETRYSIM_RESULTS": "r.jsonl"}, configfile.Taken},
		{"results from a file named", "run", "results", true, nil, configfile.Taken},
		{"policies' chart is a file", "policies", "chart", false, nil, configfile.WritesHere},
		{"run's chart is a kind", "run", "chart", false, nil, configfile.Taken},
		{"demo's db", "demo", "db", false, nil, configfile.WritesHere},
		{"proxy's captures", "proxy", "captures", false, nil, configfile.WritesHere},
		{"allow-remote from a file found", "run", "allow-remote", false, nil, configfile.SendsAway},
		{"replay's allow-remote from a file found", "replay", "allow-remote", false, nil, configfile.SendsAway},
		{"allow-remote from the environment", "run", "allow-remote", false, map[string]string{"RETRYSIM_ALLOW_REMOTE": "true"}, configfile.Taken},
		{"allow-remote from a file named", "run", "allow-remote", true, nil, configfile.Taken},
	} {
		if got := configfile.TrustOf(tc.command, tc.flag, tc.explicit, env(tc.env)); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
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
