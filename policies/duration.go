package policies

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Day is 24 hours. Webhook schedules are spoken of in days, which
// time.ParseDuration does not accept.
const Day = 24 * time.Hour

// ErrBadDuration is returned, wrapped, for a duration that cannot be parsed.
var ErrBadDuration = errors.New("bad duration")

// ParseDuration parses a duration such as "90s", "5m", "1h30m", "3d" or "2w".
// It accepts everything time.ParseDuration accepts plus the units d (24h) and
// w (7d). Negative durations are rejected: no schedule runs backwards.
func ParseDuration(s string) (time.Duration, error) {
	in := strings.TrimSpace(s)
	if in == "" {
		return 0, fmt.Errorf("%w: empty", ErrBadDuration)
	}
	if in == "0" {
		return 0, nil
	}
	var total time.Duration
	rest := in
	for rest != "" {
		// Split off the longest prefix that ends in d or w, if any.
		i := strings.IndexAny(rest, "dw")
		if i < 0 {
			d, err := time.ParseDuration(rest)
			if err != nil {
				return 0, fmt.Errorf("%w: %q (use units like 30s, 5m, 2h, 3d)", ErrBadDuration, s)
			}
			if d > 0 && total > math.MaxInt64-d {
				return 0, fmt.Errorf("%w: %q is too long", ErrBadDuration, s)
			}
			total += d
			break
		}
		n, err := strconv.ParseFloat(rest[:i], 64)
		if err != nil || !(n >= 0) { // NaN fails too
			return 0, fmt.Errorf("%w: %q (use units like 30s, 5m, 2h, 3d)", ErrBadDuration, s)
		}
		unit := Day
		if rest[i] == 'w' {
			unit = 7 * Day
		}
		if n > float64(1<<62)/float64(unit) || time.Duration(n*float64(unit)) > 1<<62-total {
			return 0, fmt.Errorf("%w: %q is too long", ErrBadDuration, s)
		}
		total += time.Duration(n * float64(unit))
		rest = rest[i+1:]
	}
	if total < 0 {
		return 0, fmt.Errorf("%w: %q is negative", ErrBadDuration, s)
	}
	return total, nil
}

// FormatDuration renders d the way a person says it: "3d", "1h14m", "4.5s",
// "250ms". Whole days are shown as days; seconds below a minute keep one
// decimal.
func FormatDuration(d time.Duration) string {
	if d < 0 {
		if d == math.MinInt64 { // has no positive counterpart
			d++
		}
		return "-" + FormatDuration(-d)
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		s := strconv.FormatFloat(d.Seconds(), 'f', 1, 64)
		return strings.TrimSuffix(s, ".0") + "s"
	}
	d = d.Round(time.Second)
	var b strings.Builder
	if days := d / Day; days > 0 {
		fmt.Fprintf(&b, "%dd", days)
		d -= days * Day
	}
	if h := d / time.Hour; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
		d -= h * time.Hour
	}
	if m := d / time.Minute; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
		d -= m * time.Minute
	}
	if d > 0 {
		fmt.Fprintf(&b, "%ds", d/time.Second)
	}
	return b.String()
}

// Duration is a time.Duration that reads and writes YAML and JSON as text
// ("5m", "3d").
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// String formats d with FormatDuration.
func (d Duration) String() string { return FormatDuration(time.Duration(d)) }

// UnmarshalYAML reads a duration written as text.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("%w: expected a duration like 30s or 3d", ErrBadDuration)
	}
	v, err := ParseDuration(n.Value)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as text.
func (d Duration) MarshalYAML() (any, error) { return d.String(), nil }
