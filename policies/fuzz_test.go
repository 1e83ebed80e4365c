package policies

import (
	"errors"
	"io/fs"
	"math"
	"strings"
	"testing"
	"time"
)

// FuzzDecode: no policy file makes Decode panic; an error names the file;
// a policy that decodes has a schedule the engine can run.
func FuzzDecode(f *testing.F) {
	files, err := fs.Glob(catalogueFS, "catalogue/*.yaml")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range files {
		data, err := catalogueFS.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Decode("mine.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "mine.yaml: ") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if n := p.MaxAttempts(); n < 1 || n > MaxAttemptsCap {
			t.Fatalf("%d attempts, want 1..%d", n, MaxAttemptsCap)
		}
		for i, d := range p.Delays() {
			if d < 0 {
				t.Fatalf("delay %d is negative: %s", i+1, d)
			}
		}
		if p.Window() < 0 {
			t.Fatalf("window %s is negative", p.Window())
		}
		if p.Timeout <= 0 || p.Wire() == nil {
			t.Fatalf("policy decoded without a timeout or a wire format: %+v", p)
		}
	})
}

// TestParseDurationRefusesOverflow: durations whose parts add up past what
// a time.Duration holds are refused, not wrapped around to a small value.
func TestParseDurationRefusesOverflow(t *testing.T) {
	for _, s := range []string{"106751d106751d106751d106751d", "15250w15250w", "100000d2562047h", "2562048h", "NaNd", "Infw"} {
		t.Run(s, func(t *testing.T) {
			d, err := ParseDuration(s)
			if !errors.Is(err, ErrBadDuration) {
				t.Fatalf("ParseDuration(%q) = %s, %v; want ErrBadDuration", s, d, err)
			}
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error %q does not name %q", err, s)
			}
		})
	}
}

// TestFormatDurationExtremes: every time.Duration formats, the most
// negative one included (it has no positive counterpart).
func TestFormatDurationExtremes(t *testing.T) {
	cases := []struct {
		d    time.Duration
		want string
	}{
		{math.MinInt64, "-106751d23h47m16s"},
		{math.MaxInt64, "106751d23h47m16s"},
		{-time.Second, "-1s"},
	}
	for _, tc := range cases {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%d) = %q, want %q", int64(tc.d), got, tc.want)
		}
	}
}

// FuzzWithURLOverrides: any fragment either applies, giving a valid policy
// whose timeout stays within Twilio's bounds, or fails with ErrBadOverride.
func FuzzWithURLOverrides(f *testing.F) {
	for _, s := range []string{"rc=2&rp=all&ct=1000&rt=5000&tt=15000", "rc=9", "rp=4xx,5xx", "tt=100", "%zz", "edge=ashburn"} {
		f.Add(s)
	}
	base, err := Lookup("twilio-docs")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, frag string) {
		p, err := base.WithURLOverrides("http://127.0.0.1/sms#" + frag)
		if err != nil {
			if !errors.Is(err, ErrBadOverride) {
				t.Fatalf("%q: error %v is not ErrBadOverride", frag, err)
			}
			return
		}
		if p.Timeout <= 0 || p.MaxAttempts() < 1 || p.MaxAttempts() > 6 {
			t.Fatalf("%q: timeout %s, %d attempts", frag, p.Timeout, p.MaxAttempts())
		}
	})
}

// FuzzExtendYAML: any document either extends the catalogue with policies
// that work, or fails with ErrBadConfig; it never panics.
func FuzzExtendYAML(f *testing.F) {
	for _, s := range []string{"stripe: {timeout: 20s}", "acme: {base: svix}", "x: {provider: zoom, schedule: {delays: [1m]}, timeout: 1s}", "stripe: [1]", "- a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		cat, err := Default().ExtendYAML("fuzz.yaml", []byte(doc))
		if err != nil {
			return
		}
		for _, n := range cat.Names() {
			p, _ := cat.Lookup(n)
			if p.Wire() == nil || p.MaxAttempts() < 1 || p.Window() < 0 {
				t.Fatalf("%q: policy %s is not usable", doc, n)
			}
		}
	})
}
