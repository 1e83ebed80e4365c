package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// FormatTTLs writes TTL choices as ParseTTLs reads them: "5m,1h,1d".
func FormatTTLs(ttls []time.Duration) string {
	parts := make([]string, len(ttls))
	for i, d := range ttls {
		parts[i] = policies.FormatDuration(d)
	}
	return strings.Join(parts, ",")
}

// ParseTTLs reads a comma-separated list of dedup-key TTL choices, such as
// "5m,24h,7d". A TTL must be positive (a key kept for 0s dedups nothing,
// and the table would only say so); one given twice is compared once, in
// the place it was first given (the first TTL is the one the timeline chart
// draws). Empty items are skipped, but the list may not be empty.
func ParseTTLs(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		d, err := policies.ParseDuration(part)
		if err != nil {
			return nil, err
		}
		if d <= 0 {
			return nil, fmt.Errorf("%s is not a TTL (give positive durations such as 5m,24h,7d)", part)
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list %q (give positive durations such as 5m,24h,7d)", s)
	}
	return out, nil
}

// ParseTTL reads one dedup TTL, such as "24h": a positive duration.
func ParseTTL(s string) (time.Duration, error) {
	d, err := policies.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("%q is not a TTL (give a positive duration such as 24h)", s)
	case d <= 0:
		return 0, fmt.Errorf("%s is not a TTL (give a positive duration such as 24h)", s)
	}
	return d, nil
}
