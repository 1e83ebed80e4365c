package main

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/report"
)

// ttlChoicesUsage is the help of --ttl, naming report's default choices.
func ttlChoicesUsage() string {
	return "dedup TTL choices to compare, comma-separated (default " + report.FormatTTLs(report.DefaultTTLs()) + ")"
}

// parseTTL reads a flag that takes one dedup TTL (--demo-ttl, demo's
// --ttl) by the rule of report.ParseTTL.
func parseTTL(flag, s string) (time.Duration, error) {
	d, err := report.ParseTTL(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", flag, err)
	}
	return d, nil
}
