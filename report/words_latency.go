package report

import (
	"fmt"
	"strings"
	"time"
)

// latencyLine says the handler's response-time distribution in one line.
func (r *Summary) latencyLine() string {
	if !r.Measured() {
		if r.Modelled() {
			return "not measured (nothing was sent: a dry run models the handler as answering at once)"
		}
		return "not measured: no delivery got an answer from your handler"
	}
	if r.Answers() == 0 {
		// Every attempt that reached the handler was cut off: there is no
		// time to show, only that none came.
		return fmt.Sprintf("no answer came: %s that reached your handler got none within %s's %s", allOf(r.HandlerTimeouts, "attempt", "attempts"), r.Policy, dur(r.Timeout))
	}
	s := fmt.Sprintf("p50 %s · p95 %s · p99 %s · max %s over %s (real time, measured by retrysim)",
		ms(r.Percentile(50)), ms(r.Percentile(95)), ms(r.Percentile(99)), ms(r.Percentile(100)), counted(r.Answers(), "answer", "answers"))
	if r.HandlerTimeouts > 0 {
		s += fmt.Sprintf("; %s got no answer within %s's %s and are not in these figures", counted(r.HandlerTimeouts, "attempt", "attempts"), r.Policy, dur(r.Timeout))
	}
	return s
}

// headroomLines say the headroom to the run's own timeout, then to the
// others grouped by verdict and timeout.
func (r *Summary) headroomLines(timeouts []Timeout) []string {
	if !r.Measured() {
		return nil
	}
	hs := r.Headroom(timeouts)
	own := hs[0]
	lines := []string{fmt.Sprintf("%s (in use), %s timeout: %s", own.Policy, dur(own.Timeout), headroomWords(r, &own))}
	type group struct {
		verdict string
		timeout time.Duration
		names   []string
		h       Headroom
	}
	var groups []*group
	for _, h := range hs[1:] {
		var g *group
		for _, x := range groups {
			if x.verdict == h.Verdict && x.timeout == h.Timeout {
				g = x
			}
		}
		if g == nil {
			g = &group{verdict: h.Verdict, timeout: h.Timeout, h: h}
			groups = append(groups, g)
		}
		g.names = append(g.names, h.Policy)
	}
	var fine []string
	for _, v := range []string{HeadroomTooSlow, HeadroomClose, HeadroomUnmeasured, HeadroomOK} {
		for _, g := range groups {
			if g.verdict != v {
				continue
			}
			names := strings.Join(g.names, ", ")
			if v == HeadroomOK {
				fine = append(fine, fmt.Sprintf("%s (%s)", names, dur(g.timeout)))
				continue
			}
			lines = append(lines, fmt.Sprintf("%s (%s): %s", names, dur(g.timeout), headroomWords(r, &g.h)))
		}
	}
	if len(fine) > 0 {
		lines = append(lines, "fine for "+strings.Join(fine, " · "))
	}
	return lines
}

// headroomWords says one headroom's verdict with its figures.
func headroomWords(r *Summary, h *Headroom) string {
	switch h.Verdict {
	case HeadroomTooSlow:
		s := fmt.Sprintf("✗ TOO SLOW: %d of %s took longer", h.Over, counted(r.Answers()+r.HandlerTimeouts, "answer", "answers"))
		cut := 0
		if h.Timeout <= r.Timeout {
			cut = r.HandlerTimeouts
		}
		if h.Over > cut {
			s += " (slowest " + ms(r.Percentile(100)) + ")"
		}
		if cut > 0 {
			s += fmt.Sprintf(" (%d got none within %s's %s)", cut, r.Policy, dur(r.Timeout))
		}
		return s
	case HeadroomClose:
		return fmt.Sprintf("close: %s to spare, the slowest answer (%s) used %.0f%% of it", ms(h.Spare), ms(h.Timeout-h.Spare), 100*float64(h.Timeout-h.Spare)/float64(h.Timeout))
	case HeadroomUnmeasured:
		if h.Unmeasured > 0 {
			return fmt.Sprintf("unknown: %s cut off at %s's %s might have answered within it", counted(h.Unmeasured, "attempt", "attempts"), r.Policy, dur(r.Timeout))
		}
		return "unknown: nothing measured"
	}
	return fmt.Sprintf("✓ %s to spare", ms(h.Spare))
}
