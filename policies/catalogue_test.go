package policies

import (
	"io/fs"
	"math"
	"path"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// rawSpec is a catalogue entry's schedule as written, read without the
// package's decoder.
type rawSpec struct {
	Name     string
	Retries  *int
	Schedule struct {
		Delays      []string
		Offsets     []string
		Exponential *struct {
			Attempts int
			Initial  string
			Window   string
			Factor   float64
			Max      string
		}
	}
}

func mustDur(t *testing.T, s string) time.Duration {
	t.Helper()
	if s == "" {
		return 0
	}
	d, err := ParseDuration(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// expectDelays works out a schedule's delays from its YAML parameters with
// closed forms: offset k of an exponential is initial·(f^k−1)/(f−1),
// rounded to the second, where a window fixes initial =
// window·(f−1)/(f^(n)−1).
func expectDelays(t *testing.T, r rawSpec) []time.Duration {
	s := r.Schedule
	var out []time.Duration
	switch {
	case s.Exponential != nil:
		e := s.Exponential
		n := e.Attempts - 1
		f := e.Factor
		geo := func(k int) float64 { // 1 + f + … + f^(k−1)
			if f == 1 {
				return float64(k)
			}
			return (math.Pow(f, float64(k)) - 1) / (f - 1)
		}
		initial := float64(mustDur(t, e.Initial))
		if e.Window != "" {
			initial = float64(mustDur(t, e.Window)) / geo(n)
		}
		if e.Max != "" {
			t.Fatalf("%s: the closed form does not cover max; extend the test", r.Name)
		}
		prev := time.Duration(0)
		for k := 1; k <= n; k++ {
			at := time.Duration(initial * geo(k)).Round(time.Second)
			out = append(out, at-prev)
			prev = at
		}
	case s.Offsets != nil:
		for i := 1; i < len(s.Offsets); i++ {
			out = append(out, mustDur(t, s.Offsets[i])-mustDur(t, s.Offsets[i-1]))
		}
	default:
		for _, d := range s.Delays {
			out = append(out, mustDur(t, d))
		}
	}
	if r.Retries != nil {
		out = out[:*r.Retries]
	}
	return out
}

// TestCatalogueWorkedTables checks every catalogue policy's worked table —
// the delay before each attempt and the elapsed time — against numbers
// worked out from its YAML parameters, and its window.
func TestCatalogueWorkedTables(t *testing.T) {
	files, err := fs.Glob(catalogueFS, "catalogue/*.yaml")
	if err != nil || len(files) < 16 {
		t.Fatalf("catalogue files: %v, %v", files, err)
	}
	for _, f := range files {
		data, _ := catalogueFS.ReadFile(f)
		var raw rawSpec
		if err := yaml.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		t.Run(raw.Name, func(t *testing.T) {
			if want := strings.TrimSuffix(path.Base(f), ".yaml"); raw.Name != want {
				t.Errorf("file %s holds policy %q", f, raw.Name)
			}
			p, err := Lookup(raw.Name)
			if err != nil {
				t.Fatal(err)
			}
			want := expectDelays(t, raw)
			if p.MaxAttempts() != len(want)+1 {
				t.Fatalf("MaxAttempts = %d, want %d", p.MaxAttempts(), len(want)+1)
			}
			var elapsed time.Duration
			for n := 1; n <= p.MaxAttempts(); n++ {
				if n > 1 {
					d, ok := p.Delay(n - 1)
					if diff := d - want[n-2]; !ok || diff < -time.Second || diff > time.Second {
						t.Errorf("delay before attempt %d = %s, want %s", n, FormatDuration(d), FormatDuration(want[n-2]))
					}
					elapsed += want[n-2]
				}
				if diff := p.Offset(n) - elapsed; diff < -time.Second || diff > time.Second {
					t.Errorf("attempt %d at %s, want %s", n, FormatDuration(p.Offset(n)), FormatDuration(elapsed))
				}
			}
			if diff := p.Window() - elapsed; diff < -time.Second || diff > time.Second {
				t.Errorf("window %s, want %s", FormatDuration(p.Window()), FormatDuration(elapsed))
			}
			if e := raw.Schedule.Exponential; e != nil && e.Window != "" && raw.Retries == nil && p.Window() != mustDur(t, e.Window) {
				t.Errorf("window %s, but the YAML fits the schedule to %s", FormatDuration(p.Window()), e.Window)
			}
			if p.Source == "" || p.Notes == "" || !strings.Contains(p.Source, "docs/PROVIDERS.md") {
				t.Errorf("source %q / notes %q: every policy cites docs/PROVIDERS.md and says what it assumes", p.Source, p.Notes)
			}
		})
	}
}

// TestVariantsPresent: the documented variants are in the catalogue next to
// the named defaults.
func TestVariantsPresent(t *testing.T) {
	for _, n := range []string{"stripe", "github", "shopify", "twilio", "slack", "discord",
		"shopify-2024", "slack-docs", "stripe-test", "github-manual", "svix", "standard-webhooks",
		"paypal", "zoom", "discord-events", "gitlab"} {
		if _, err := Lookup(n); err != nil {
			t.Error(err)
		}
	}
}
