package main

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// --version says the module version, the revision and whether the tree
// was dirty, as the binary's build information records them.
func TestVersionWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		info debug.BuildInfo
		want []string
		not  []string
	}{
		{"release", debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.time", Value: "2026-11-30T10:00:00Z"}, {Key: "vcs.modified", Value: "false"},
		}}, []string{"v1.4.0", "revision 0123456789abcdef of 2026-11-30T10:00:00Z", "go1.26.8"}, []string{"dirty"}},
		{"dirty work tree", debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fedcba"}, {Key: "vcs.modified", Value: "true"},
		}}, []string{"(devel)", "revision fedcba", "dirty"}, nil},
		{"no vcs", debug.BuildInfo{}, []string{"(devel)", "no VCS revision recorded (go build records it in a git checkout, unless -buildvcs=false)"}, []string{"dirty"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := versionOf(&tc.info)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q lacks %q", got, w)
				}
			}
			for _, w := range tc.not {
				if strings.Contains(got, w) {
					t.Errorf("%q says %q", got, w)
				}
			}
		})
	}
	code, out, _ := retrysim(t, nil, "--version")
	if code != 0 || !strings.HasPrefix(out, "retrysim ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// Boolean flags read as plain flags in --help, and still parse both ways.
func TestHelpShowsPlainBooleans(t *testing.T) {
	_, out, _ := retrysim(t, nil, "run", "--help")
	if strings.Contains(out, "[=true|false]") {
		t.Errorf("--help shows [=true|false]:\n%s", out)
	}
	if !strings.Contains(out, "      --dry-run  ") {
		t.Errorf("--help does not show --dry-run as a plain flag:\n%s", out)
	}
	code, out, errs := retrysim(t, nil, "run", "--provider", "stripe", "--dry-run", "--events", "1", "--verbose=false")
	if code != 0 || strings.Contains(out, "timeline of the first") {
		t.Errorf("--verbose=false: exit %d, %s\n%s", code, errs, out)
	}
}

// Flag values and show's argument complete from the catalogues, a list
// flag's last element after what was typed before it.
func TestCompletion(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "run", "--provider", "stripe,gi"}, "stripe,github\n"},
		{[]string{"__complete", "run", "--scenario", "flaky"}, "flaky-network\n"},
		{[]string{"__complete", "run", "--format", "ju"}, "junit\n"},
		{[]string{"__complete", "run", "--fail-on", "lost-events,dup"}, "lost-events,duplicate-effects\n"},
		{[]string{"__complete", "run", "--demo", "check-"}, "check-then-act\n"},
		{[]string{"__complete", "report", "x.jsonl", "--chart", "st"}, "storm\n"},
		{[]string{"__complete", "run", "--by", "e"}, "event\n"},
		{[]string{"__complete", "ttl", "--format", "c"}, ":"}, // ttl writes no CSV
		{[]string{"__complete", "policies", "show", "shopify-"}, "shopify-2024\n"},
		{[]string{"__complete", "scenarios", "show", "outage-"}, "outage-6h\n"},
	} {
		t.Run(strings.Join(tc.args[1:], " "), func(t *testing.T) {
			_, out, _ := retrysim(t, nil, tc.args...)
			if !strings.HasPrefix(out, tc.want) {
				t.Errorf("completes to %q, want it to start %q", out, tc.want)
			}
		})
	}
}

// One config file serves run and demo: demo's --ttl reads "demo-ttl", as
// run's --demo-ttl does, not "ttl", which is the TTL choices run compares.
func TestDemoTTLConfigKey(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "retrysim.yaml")
	if err := os.WriteFile(cfg, []byte("ttl: 5m,1h\ndemo-ttl: 2h\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir) // the config is retrysim.yaml in the working directory
	root := newRootCmd()
	for _, tc := range []struct{ cmd, flag, want string }{{"demo", "ttl", "2h"}, {"run", "demo-ttl", "2h"}, {"run", "ttl", "5m,1h"}} {
		cmd, _, err := root.Find([]string{tc.cmd})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := loadConfig(cmd); err != nil {
			t.Fatalf("%s: %v", tc.cmd, err)
		}
		if got := cmd.Flags().Lookup(tc.flag).Value.String(); got != tc.want {
			t.Errorf("%s --%s from the config: %q, want %q", tc.cmd, tc.flag, got, tc.want)
		}
	}
}
