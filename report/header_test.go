package report_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// The header names the policy with its summary when it has one, and says
// when the scenario was the default rather than a choice: its faults are
// in the figures, and someone who chose none should know where they came
// from.
func TestHeaderWords(t *testing.T) {
	for _, tc := range []struct {
		name            string
		summary         string
		defaultScenario bool
		text, md        string
		absent          []string
	}{
		{"summary and chosen scenario", "16 attempts over 3 days", false,
			"retrysim · stripe (16 attempts over 3 days) · test · seed 1 · 1 event\n",
			"## stripe · test · seed 1\n\n16 attempts over 3 days · 1 event · target:", []string{"default scenario"}},
		{"no summary", "", false,
			"retrysim · stripe · test · seed 1 · 1 event\n",
			"## stripe · test · seed 1\n\n1 event · target:", []string{"()", "\n · "}},
		{"default scenario", "16 attempts over 3 days", true,
			"retrysim · stripe (16 attempts over 3 days) · test (default scenario) · seed 1 · 1 event\n",
			"## stripe · test (default scenario) · seed 1\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(1)
			s.recs[0].Summary, s.recs[0].DefaultScenario = tc.summary, tc.defaultScenario
			recs := s.attempt(0, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(0, simulator.FateDelivered).end(nil, false)
			runs, err := report.Summarize(recs)
			if err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Runs: runs}
			text, md, _ := renderAll(t, rep)
			if !strings.HasPrefix(text, tc.text) {
				t.Errorf("text header:\n%s\nwant it to start %q", text, tc.text)
			}
			if !strings.Contains(md, tc.md) {
				t.Errorf("markdown lacks %q:\n%s", tc.md, md)
			}
			for _, no := range tc.absent {
				if strings.Contains(text, no) || strings.Contains(md, no) {
					t.Errorf("report says %q:\n%s\n%s", no, text, md)
				}
			}
		})
	}
}

// A run of real deliveries (retrysim proxy) is headed by the types that
// came, as their deliveries gave them: one by name, several counted by
// type, the most first, and never a type its stream does not give (a
// stream written before event records gave theirs named the provider's
// default, whatever came).
func TestHeaderNamesTheTypesDelivered(t *testing.T) {
	for _, tc := range []struct {
		name     string
		runType  string // what the run record names
		types    []string
		text, md string
		json     string // the JSON's event_type
	}{
		{"one type", "", []string{"invoice.paid"},
			"1 real delivery of type invoice.paid", "1 real delivery of type `invoice.paid`", "invoice.paid"},
		{"several types", "", []string{"customer.created", "invoice.paid", "invoice.paid"},
			"3 real deliveries of 2 types (2 invoice.paid, 1 customer.created)",
			"3 real deliveries of 2 types (2 `invoice.paid`, 1 `customer.created`)", "invoice.paid, customer.created"},
		{"no type given", "", []string{"", ""},
			"2 real deliveries (type not given)", "2 real deliveries (type not given)", ""},
		{"some with no type", "", []string{"invoice.paid", "", "invoice.paid"},
			"3 real deliveries (2 invoice.paid, 1 with no type given)",
			"3 real deliveries (2 `invoice.paid`, 1 with no type given)", "invoice.paid"},
		{"more types than are listed", "", []string{"t.a", "t.b", "t.c", "t.d", "t.e", "t.f", "t.g", "t.a", "t.b"},
			"9 real deliveries of 7 types (2 t.a, 2 t.b, 1 t.c, 1 t.d, 1 t.e, 2 of 2 other types)",
			"9 real deliveries of 7 types (2 `t.a`, 2 `t.b`, 1 `t.c`, 1 `t.d`, 1 `t.e`, 2 of 2 other types)", "t.a, t.b, t.c, t.d, t.e, t.f, t.g"},
		{"a stream that did not give the types", "invoice.payment_succeeded", []string{"", ""},
			"2 real deliveries\n", "2 real deliveries · target", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newRecStream(0)
			s.recs[0].EventType = tc.runType
			for i, typ := range tc.types {
				s.attempt(i, 1, 0, simulator.Delivered, 200, true, time.Millisecond).fate(i, simulator.FateDelivered)
				s.recs[len(s.recs)-1].Type = typ
			}
			runs, err := report.Summarize(s.end(nil, false))
			if err != nil {
				t.Fatal(err)
			}
			text, md, js := renderAll(t, &report.Report{Runs: runs, Width: -1})
			header, _, _ := strings.Cut(text, "target:")
			if !strings.HasSuffix(header, " · "+tc.text+"\n") && !strings.HasSuffix(header, " · "+tc.text) {
				t.Errorf("text header:\n%s\nwant it to end %q", header, tc.text)
			}
			if !strings.Contains(md, "\n"+tc.md) { // the policy has no summary: the line begins with the deliveries
				t.Errorf("markdown lacks %q:\n%s", tc.md, md)
			}
			var got struct {
				Runs []struct {
					EventType string `json:"event_type"`
				} `json:"runs"`
			}
			if err := json.Unmarshal([]byte(js), &got); err != nil || len(got.Runs) != 1 {
				t.Fatalf("JSON %v: %s", err, js)
			}
			if got.Runs[0].EventType != tc.json {
				t.Errorf("JSON event_type %q, want %q", got.Runs[0].EventType, tc.json)
			}
			if strings.Contains(text+md+js, "payment_succeeded") {
				t.Errorf("the report names the default type, which nothing said came:\n%s", text)
			}
		})
	}
}
