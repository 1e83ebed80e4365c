package report_test

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// What a CI system reads from the JUnit report: one suite per run, one case
// per gate, failures and errors with their reasons.
type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Time     string   `xml:"time,attr"`
	Suites   []struct {
		Name      string `xml:"name,attr"`
		Time      string `xml:"time,attr"`
		Timestamp string `xml:"timestamp,attr"`
		Tests     int    `xml:"tests,attr"`
		Failures  int    `xml:"failures,attr"`
		Errors    int    `xml:"errors,attr"`
		Props     []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name    string `xml:"name,attr"`
			Class   string `xml:"classname,attr"`
			Time    string `xml:"time,attr"`
			Failure *struct {
				Message string `xml:"message,attr"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
		Out string `xml:"system-out"`
	} `xml:"testsuite"`
}

func TestWriteJUnit(t *testing.T) {
	s := newRecStream(2)
	s.attempt(0, 1, 0, simulator.Delivered, 200, true, 5*ms).fate(0, simulator.FateDelivered)
	recs := lostResponse(s, 1, 5*time.Minute).end(map[string]int{"evt_a": 1, "evt_b": 2}, false)
	runs, err := report.Summarize(recs)
	if err != nil {
		t.Fatal(err)
	}
	gates := []report.Gate{report.GateDuplicateEffects, report.GateLostEvents, report.GateTTLTooShort}
	rep := &report.Report{Runs: runs, Gates: report.CheckGates(runs, gates, report.GateOptions{})}
	var buf bytes.Buffer
	if err := report.WriteJUnit(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML header:\n%s", buf.String())
	}
	var doc junitDoc
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed JUnit XML: %v\n%s", err, buf.String())
	}
	if doc.Tests != 3 || doc.Failures != 1 || doc.Errors != 1 || len(doc.Suites) != 1 {
		t.Fatalf("tests %d failures %d errors %d suites %d, want 3 1 1 1\n%s", doc.Tests, doc.Failures, doc.Errors, len(doc.Suites), buf.String())
	}
	suite := doc.Suites[0]
	if suite.Name != "retrysim stripe · test · seed 1" || suite.Tests != 3 || suite.Failures != 1 || suite.Errors != 1 {
		t.Errorf("suite %q tests %d failures %d errors %d", suite.Name, suite.Tests, suite.Failures, suite.Errors)
	}
	wantCases := []struct {
		name    string
		failure string
		err     string
	}{
		{"duplicate-effects", "1 event of 2 processed more than once: evt_b processed 2 times", ""},
		{"lost-events", "", ""},
		{"ttl-too-short", "", "GateOptions.TTLConfigured"},
	}
	for i, want := range wantCases {
		c := suite.Cases[i]
		if c.Name != want.name || c.Class != "retrysim.stripe.test" {
			t.Errorf("case %d: %s (%s), want %s (retrysim.stripe.test)", i, c.Name, c.Class, want.name)
		}
		switch {
		case want.failure != "":
			if c.Failure == nil || !strings.Contains(c.Failure.Message, want.failure) {
				t.Errorf("case %s: failure %+v, want one containing %q", c.Name, c.Failure, want.failure)
			}
		case want.err != "":
			if c.Error == nil || !strings.Contains(c.Error.Message, want.err) {
				t.Errorf("case %s: error %+v, want one containing %q", c.Name, c.Error, want.err)
			}
		default:
			if c.Failure != nil || c.Error != nil {
				t.Errorf("case %s should pass: %+v %+v", c.Name, c.Failure, c.Error)
			}
		}
	}
	props := map[string]string{}
	for _, p := range suite.Props {
		props[p.Name] = p.Value
	}
	if props["verdict"] != string(report.NotIdempotent) || props["provider"] != "stripe" {
		t.Errorf("properties %v, want verdict not_idempotent, provider stripe", props)
	}
	// The suite's time is what the run waited on the handler: answers of
	// 5, 3 and 2 ms; CI systems show it beside the tests.
	if suite.Time != "0.010" || doc.Time != "0.010" {
		t.Errorf("suite time %q, whole time %q, want 0.010 s for answers of 5, 3 and 2 ms", suite.Time, doc.Time)
	}
	for _, c := range suite.Cases {
		if c.Time != "0" {
			t.Errorf("case %s: time %q, want 0 (a gate is a check over the records)", c.Name, c.Time)
		}
	}
	if !strings.Contains(suite.Out, "NOT IDEMPOTENT") {
		t.Errorf("system-out %q does not give the verdict", suite.Out)
	}
}

// A run's id is a property of its testsuite, so a CI failure can be
// reproduced with --run-id.
func TestJUnitNamesTheRunID(t *testing.T) {
	s := newRecStream(1)
	s.recs[0].RunID = "k3f9q2ab"
	s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered)
	runs, err := report.Summarize(s.end(nil, false))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := report.WriteJUnit(&out, &report.Report{Runs: runs}); err != nil {
		t.Fatal(err)
	}
	if want := `<property name="run_id" value="k3f9q2ab"></property>`; !strings.Contains(out.String(), want) {
		t.Errorf("JUnit lacks %s:\n%s", want, out.String())
	}
}

// A suite's timestamp is when its run really started, not the virtual
// start every run shares; a stream that does not record the wall start
// (written before it was) falls back to the virtual start.
func TestJUnitTimestampIsWallStart(t *testing.T) {
	wall := time.Date(2031, 7, 9, 14, 3, 5, 0, time.FixedZone("CEST", 2*3600))
	for _, tc := range []struct {
		name string
		wall *time.Time
		want string
	}{
		{"recorded", &wall, "2031-07-09T12:03:05"},
		{"old stream", nil, t0.Format("2006-01-02T15:04:05")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			s.recs[0].WallStart = tc.wall
			recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, 5*ms).fate(0, simulator.FateDelivered).end(map[string]int{"evt_a": 1}, false)
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := report.WriteJUnit(&buf, &report.Report{Runs: runs}); err != nil {
				t.Fatal(err)
			}
			var doc junitDoc
			if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
				t.Fatalf("not well-formed JUnit XML: %v\n%s", err, buf.String())
			}
			if len(doc.Suites) != 1 || doc.Suites[0].Timestamp != tc.want {
				t.Fatalf("timestamp %+v, want %s (UTC)\n%s", doc.Suites, tc.want, buf.String())
			}
		})
	}
}
