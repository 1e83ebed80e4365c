package report

import (
	"encoding/csv"
	"io"
	"strconv"
	"time"
)

// csvHeader is the CSV contract: one row per attempt, in run order then
// event order then attempt order. at_seconds is virtual time since the
// event's first attempt, time the virtual time itself; fate is the event's
// fate and processed how often the handler processed it (empty when
// unknown).
var csvHeader = []string{
	"provider", "policy", "scenario", "seed", "event", "seq", "attempt", "time", "at_seconds",
	"outcome", "status", "handler_status", "reached_handler", "latency_ms", "added_latency_ms",
	"fault", "error", "fate", "processed",
}

// WriteCSV writes one row per attempt of every event the report kept (keep
// them all with WithTimeline(-1)), several runs one after the other.
func WriteCSV(w io.Writer, rep *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range rep.Runs {
		for _, ev := range r.Timeline {
			processed := ""
			if r.EffectsKnown {
				processed = strconv.Itoa(r.Effects[ev.ID])
			}
			for _, a := range ev.Attempts {
				err := cw.Write([]string{
					r.Provider, r.Policy, r.Scenario, strconv.FormatUint(r.Seed, 10), ev.ID, strconv.Itoa(ev.Seq),
					strconv.Itoa(a.N), a.Time.UTC().Format(time.RFC3339Nano), fmtFloat(a.AtSeconds),
					string(a.Outcome), strconv.Itoa(a.Status), strconv.Itoa(a.HandlerStatus), strconv.FormatBool(a.Reached),
					fmtFloat(a.LatencyMS), fmtFloat(a.AddedLatencyMS), a.Fault, a.Error, ev.Fate, processed,
				})
				if err != nil {
					return err
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
