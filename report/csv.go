package report

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
	"time"

	"github.com/retrysim/retrysim/simulator"
)

// csvHeader is the CSV contract: one row per attempt, in run order then
// event order then attempt order. at_seconds is virtual time since the
// event's first attempt, time the virtual time itself; fate is the event's
// fate and processed how often the handler processed it (empty when
// unknown). An attack request is a row of its own after the attempt it went
// beside (the provider's probe first in its run, attempt 0): attack names
// it, event is its own dedup id, outcome and fate are empty, and processed
// counts the side effects it caused.
var csvHeader = []string{
	"provider", "policy", "scenario", "seed", "event", "seq", "attempt", "time", "at_seconds",
	"outcome", "status", "handler_status", "reached_handler", "latency_ms", "added_latency_ms",
	"fault", "error", "fate", "processed", "attack",
}

// WriteCSV writes one row per attempt of every event the report kept (keep
// them all with WithTimeline(-1)), several runs one after the other.
func WriteCSV(w io.Writer, rep *Report) error {
	// csv writes through a buffer of its own only when given a smaller
	// one: this one, flushed by its Flush.
	cw := csv.NewWriter(bufio.NewWriterSize(w, bufferSize))
	defer cw.Flush() // the rows before an error, too
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range rep.Runs {
		processed := func(id string) string {
			if !r.EffectsKnown {
				return ""
			}
			return strconv.Itoa(r.Times(id))
		}
		attack := func(a *simulator.Record) []string {
			name := a.Attack
			if a.AttackChange != "" {
				name += " (" + a.AttackChange + ")"
			}
			if a.Probe {
				name = ProbeName
			}
			return []string{
				r.Provider, r.Policy, r.Scenario, strconv.FormatUint(r.Seed, 10), a.EventID, strconv.Itoa(a.Seq),
				strconv.Itoa(a.Attempt), a.Time.UTC().Format(time.RFC3339Nano), fmtFloat(a.At.Seconds()),
				"", strconv.Itoa(a.Status), strconv.Itoa(a.HandlerStatus), strconv.FormatBool(a.Reached),
				fmtFloat(msf(a.Latency)), "0", "", a.Error, "", processed(a.EventID), name,
			}
		}
		if r.Probe != nil {
			if err := cw.Write(attack(r.Probe)); err != nil {
				return err
			}
		}
		for ev, err := range r.Timelines() {
			if err != nil {
				return err
			}
			for _, a := range ev.Attempts {
				err := cw.Write([]string{
					r.Provider, r.Policy, r.Scenario, strconv.FormatUint(r.Seed, 10), ev.ID, strconv.Itoa(ev.Seq),
					strconv.Itoa(a.Attempt), a.Time.UTC().Format(time.RFC3339Nano), fmtFloat(a.At.Seconds()),
					string(a.Outcome), strconv.Itoa(a.Status), strconv.Itoa(a.HandlerStatus), strconv.FormatBool(a.Reached),
					fmtFloat(msf(a.Latency)), fmtFloat(msf(a.AddedLatency)), a.Fault, a.Error, ev.Fate, processed(ev.ID), "",
				})
				if err != nil {
					return err
				}
				if a.Copy > 0 {
					continue
				}
				for i := range ev.Attacks {
					if ev.Attacks[i].Attempt == a.Attempt {
						if err := cw.Write(attack(&ev.Attacks[i])); err != nil {
							return err
						}
					}
				}
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
