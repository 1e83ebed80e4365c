package main

import (
	"fmt"
	"time"

	"github.com/retrysim/retrysim/report"
)

// parseTTLs reads --ttl: dedup TTL choices, comma-separated, by the rules
// of report.ParseTTLs.
func parseTTLs(s string) ([]time.Duration, error) {
	ds, err := report.ParseTTLs(s)
	if err != nil {
		return nil, fmt.Errorf("--ttl: %w", err)
	}
	return ds, nil
}
