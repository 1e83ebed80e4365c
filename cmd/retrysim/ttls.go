package main

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
)

// ttlChoicesUsage is the help of --ttl, naming report's default choices.
func ttlChoicesUsage() string {
	return "dedup TTL choices to compare, comma-separated (default " + report.FormatTTLs(report.DefaultTTLs()) + ")"
}

// parseTTL reads a flag that takes one dedup TTL (--demo-ttl, demo's
// --ttl, --ttl-configured): a positive duration.
func parseTTL(flag, s string) (time.Duration, error) {
	d, err := policies.ParseDuration(s)
	switch {
	case err != nil:
		return 0, fmt.Errorf("--%s: %q is not a TTL (give a positive duration such as 24h)", flag, s)
	case d <= 0:
		return 0, fmt.Errorf("--%s: %s is not a TTL (give a positive duration such as 24h)", flag, s)
	}
	return d, nil
}
