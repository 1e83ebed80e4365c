package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"time"
)

// The JUnit XML that CI systems (GitHub Actions test reporters, GitLab,
// Jenkins, CircleCI) display: one testsuite per run, one testcase per gate.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// FormatJUnit is the JUnit XML format of `retrysim run --fail-on`.
const FormatJUnit = "junit"

// WriteJUnit writes the gates of rep (Report.Gates) as JUnit XML: one
// testsuite per run, named after its policy, scenario and seed, and one
// testcase per gate. A failed gate is a <failure>, a gate that could not be
// checked an <error>, each with the reason in words. A suite's time is the
// real time its run spent waiting on the handler's answers (the sum of the
// response times measured), its timestamp the real time the run started
// (the virtual start for streams that do not record it); a gate is a
// check over the records and takes no time.
func WriteJUnit(w io.Writer, rep *Report) error {
	return buffered(w, func(w io.Writer) error { return writeJUnit(w, rep) })
}

func writeJUnit(w io.Writer, rep *Report) error {
	out := junitSuites{Name: "retrysim"}
	var total time.Duration
	for _, r := range rep.Runs {
		s := junitSuite{
			Name: fmt.Sprintf("retrysim %s · %s · seed %d", r.Policy, r.Scenario, r.Seed),
			Time: junitSeconds(r.HandlerTime),
			Properties: []junitProperty{
				{"provider", r.Provider}, {"policy", r.Policy}, {"scenario", r.Scenario},
				{"seed", fmt.Sprint(r.Seed)}, {"target", r.Target}, {"verdict", string(r.Verdict())},
			},
		}
		if at := junitStart(r); !at.IsZero() {
			s.Timestamp = at.UTC().Format("2006-01-02T15:04:05")
		}
		if r.EventType != "" {
			s.Properties = append(s.Properties, junitProperty{"event_type", r.EventType})
		}
		total += r.HandlerTime
		if r.RunID != "" {
			s.Properties = append(s.Properties, junitProperty{"run_id", r.RunID})
		}
		s.SystemOut = fmt.Sprintf("%s, %s, %d delivered, %d lost, %s\nside effects: %s\ndedup TTL: recommend %s\n",
			counted(r.Events, "event", "events"), counted(r.Attempts, "attempt", "attempts"), r.Delivered, r.Lost, counted(r.DuplicateArrivals, "duplicate arrival", "duplicate arrivals"), rep.words().verdictLine(r), dur(r.TTL(rep.TTLs).Recommended))
		for _, g := range GatesFor(rep.Gates, r) {
			c := junitCase{Name: string(g.Gate), ClassName: fmt.Sprintf("retrysim.%s.%s", r.Policy, r.Scenario), Time: "0"}
			switch g.Status {
			case GateFail:
				c.Failure = &junitProblem{Message: g.Message, Type: "gate failed", Text: g.Message}
				s.Failures++
			case GateUnchecked:
				c.Error = &junitProblem{Message: g.Message, Type: "gate not checked", Text: g.Message}
				s.Errors++
			default:
				c.SystemOut = g.Message
			}
			s.Cases = append(s.Cases, c)
			s.Tests++
		}
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Errors += s.Errors
		out.Suites = append(out.Suites, s)
	}
	out.Time = junitSeconds(total)
	// Marshalled whole, not by an xml.Encoder, which flushes as it ends:
	// the file is then one write, not two.
	doc, err := xml.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	if _, err := w.Write(doc); err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// junitSeconds is a JUnit time attribute: seconds, to the millisecond.
func junitSeconds(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// junitStart is when a suite's run started: the wall clock's time, or for
// a stream written before runs recorded it, the run's virtual start.
func junitStart(r *Summary) time.Time {
	if !r.WallStart.IsZero() {
		return r.WallStart
	}
	return r.Start
}
