package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// ReplayFormats are the formats WriteReplay writes.
func ReplayFormats() []string {
	return []string{FormatText, FormatJSON}
}

// WriteReplay writes a replay's result in format (one of ReplayFormats).
// target names the handler in the text form; empty means the result's own
// Target. sp spells the settings the checks and the verdict may advise
// changing (nil: as Go names them).
func WriteReplay(w io.Writer, r *simulator.ReplayResult, format, target string, sp simulator.Spelling) error {
	return buffered(w, func(w io.Writer) error {
		if format == FormatJSON {
			return WriteReplayJSON(w, r, sp)
		}
		return WriteReplayText(w, r, target, sp)
	})
}

var checkMark = map[string]string{simulator.CheckPass: "✓", simulator.CheckFail: "✗", simulator.CheckUnverified: "?"}

// WriteReplayText writes a replay for a person: each send, the checks, the
// verdict. target names the handler; empty means r.Target; sp spells the
// settings the advice names.
func WriteReplayText(w io.Writer, r *simulator.ReplayResult, target string, sp simulator.Spelling) error {
	var b strings.Builder
	fmt.Fprintf(&b, "retrysim replay · %s delivery %s (dedup id: %s)\n", r.Provider, EscapeText(r.DedupID), r.DedupField)
	if target == "" {
		target = r.Target
	}
	fmt.Fprintf(&b, "target: %s\n", EscapeText(target))
	how := fmt.Sprintf("%s on %s's retry schedule, in virtual time", counted(r.Times, "send", "sends"), r.Policy)
	if r.Concurrent {
		how = fmt.Sprintf("%s at once, overlapping in the handler", counted(r.Times, "send", "sends"))
	}
	switch {
	case r.Resigned:
		how += fmt.Sprintf("; each re-signed (%s)", strings.Join(r.SignatureHeaders, ", "))
	case len(r.SignatureHeaders) > 0:
		how += fmt.Sprintf("; the captured signature (%s) sent as it is", strings.Join(r.SignatureHeaders, ", "))
	}
	fmt.Fprintf(&b, "%s\n\n", how)
	fmt.Fprintf(&b, "  %4s  %-12s  %-8s  %-7s  %s\n", "#", "at", "answer", "writes", "time")
	for _, s := range r.Sends {
		answer := fmt.Sprint(s.Status)
		if s.Status == 0 {
			answer = "none"
		}
		writes := "?"
		if s.Writes >= 0 {
			writes = fmt.Sprint(s.Writes)
		}
		at := "+" + policies.FormatDuration(time.Duration(s.AtSeconds*float64(time.Second)))
		note := ""
		if s.PastSchedule {
			note = "  (past the schedule)"
		}
		if s.Error != "" {
			note += "  " + s.Error
		}
		fmt.Fprintf(&b, "  %4d  %-12s  %-8s  %-7s  %s%s\n", s.N, at, answer, writes, ms(fromMS(s.LatencyMS)), note)
	}
	b.WriteString("\n")
	for _, c := range ReplayChecks(r, sp) {
		fmt.Fprintf(&b, "  %s %s\n", checkMark[c.Status], c.What)
	}
	fmt.Fprintf(&b, "\n  %s\n", ReplayVerdictLine(r, sp))
	_, err := io.WriteString(w, b.String())
	return err
}

// fromMS turns a time in milliseconds, to the microsecond (as records and
// replay sends carry it), back into a Duration.
func fromMS(v float64) time.Duration {
	return time.Duration(math.Round(v*1000)) * time.Microsecond
}
