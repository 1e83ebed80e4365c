package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The report command prints exactly what run printed for the same records,
// in every format, several providers side by side.
func TestReportReproducesRun(t *testing.T) {
	cases := []struct {
		name string
		args []string
	}{
		{"text", []string{"--format", "text"}},
		{"json", []string{"--format", "json"}},
		{"markdown", []string{"--format", "markdown"}},
		{"csv", []string{"--format", "csv"}},
		{"text-ttl-choices", []string{"--ttl", "5m,24h,72h"}},
		{"text-no-timeline", []string{"--no-timeline"}},
	}
	dir := t.TempDir()
	base := []string{"run", "--provider", "stripe,shopify", "--scenario", "flaky-network", "--dry-run", "--events", "12"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			results := filepath.Join(dir, c.name+".jsonl")
			runOut, _ := mustRun(t, nil, append(append(base, "--results", results), c.args...)...)
			repOut, _ := mustRun(t, nil, append([]string{"report", results}, c.args...)...)
			if runOut == "" {
				t.Fatal("run printed nothing")
			}
			if runOut != repOut {
				t.Errorf("report differs from run\n--- run:\n%s\n--- report:\n%s", runOut, repOut)
			}
		})
	}
}

// A handler with real side effects: the verdict and effects come back from
// the stream too.
func TestReportReproducesRunWithEffects(t *testing.T) {
	results := filepath.Join(t.TempDir(), "r.jsonl")
	runOut, _ := mustRun(t, nil, "run", "--provider", "slack", "--demo", "naive", "--events", "8", "--results", results)
	repOut, _ := mustRun(t, nil, "report", results)
	if runOut != repOut {
		t.Errorf("report differs from run\n--- run:\n%s\n--- report:\n%s", runOut, repOut)
	}
	if !strings.Contains(runOut, "side effects:") {
		t.Errorf("no side-effects line:\n%s", runOut)
	}
}

// `retrysim run … --results - | retrysim report -`: the stream goes to
// stdout, the report to stderr, and report - prints that same report.
func TestReportFromPipe(t *testing.T) {
	stream, runReport := mustRun(t, nil, "run", "--provider", "github", "--dry-run", "--events", "10", "--results", "-", "--format", "markdown")
	if !strings.HasPrefix(stream, `{"kind":"run"`) {
		t.Fatalf("stdout is not the results stream: %.80s", stream)
	}
	out, _ := mustRun(t, []byte(stream), "report", "-", "--format", "markdown")
	if out != runReport {
		t.Errorf("report - differs from what run printed\n--- run:\n%s\n--- report:\n%s", runReport, out)
	}
}

// --out FILE.png draws the chart, the markdown report links it, and report
// draws the same picture from the stream.
func TestOutChart(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.jsonl")
	chart1, chart2 := filepath.Join(dir, "run.png"), filepath.Join(dir, "report.png")
	args := []string{"--format", "markdown", "--log-time"}
	md, _ := mustRun(t, nil, append([]string{"run", "--provider", "stripe", "--scenario", "outage", "--dry-run", "--events", "10", "--results", results, "--out", chart1}, args...)...)
	if !strings.Contains(md, "![retrysim chart]("+chart1+")") {
		t.Errorf("markdown does not show the chart:\n%s", md)
	}
	mustRun(t, nil, append([]string{"report", results, "--out", chart2}, args...)...)
	a, err := os.ReadFile(chart1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(chart2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(a)); err != nil {
		t.Fatalf("run --out wrote no PNG: %v", err)
	}
	if !bytes.Equal(a, b) {
		t.Error("report drew a different chart from run's for the same stream")
	}
}

// --out with a text extension writes the report there, in that format,
// and stdout keeps --format.
func TestOutReportFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "report.json")
	out, _ := mustRun(t, nil, "run", "--provider", "twilio", "--dry-run", "--events", "5", "--out", file)
	if !strings.HasPrefix(out, "retrysim · twilio") {
		t.Errorf("stdout should keep the text report when --out names a file, got:\n%s", out)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Runs []struct{ Provider string } `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil || len(v.Runs) != 1 || v.Runs[0].Provider != "twilio" {
		t.Errorf("--out report.json: %v %+v\n%s", err, v, data)
	}
}

func TestTTLCommand(t *testing.T) {
	out, errs := mustRun(t, nil, "ttl", "--provider", "stripe,twilio", "--events", "30")
	for _, want := range []string{"worst-case retry span", "recommended TTL", "too short for stripe", "overall: recommend a dedup TTL of 4d"} {
		if !strings.Contains(out, want) {
			t.Errorf("ttl output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "too short for twilio") {
		t.Errorf("twilio retries for a second; no common advice is too short for it:\n%s", out)
	}
	if errs != "" {
		t.Errorf("stderr is not a terminal, so nothing should be drawn there; got %q", errs)
	}
	js, _ := mustRun(t, nil, "ttl", "--provider", "github", "--events", "10", "--format", "json")
	var v struct {
		Runs []struct {
			TTL struct {
				RecommendedSeconds float64 `json:"recommended_seconds"`
				Choices            []struct {
					WorstCaseArrivals int `json:"worst_case_arrivals"`
				} `json:"choices"`
			} `json:"ttl"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(js), &v); err != nil || len(v.Runs) != 1 || len(v.Runs[0].TTL.Choices) != 6 {
		t.Fatalf("ttl --format json: %v\n%s", err, js)
	}
	dir := t.TempDir()
	chart, md := filepath.Join(dir, "ttl.svg"), filepath.Join(dir, "ttl.md")
	out, _ = mustRun(t, nil, "ttl", "--provider", "slack", "--events", "10", "--out", chart, "--out", md)
	if data, err := os.ReadFile(chart); err != nil || !bytes.Contains(data, []byte("<svg")) {
		t.Errorf("ttl --out ttl.svg wrote no SVG: %v", err)
	}
	if data, err := os.ReadFile(md); err != nil || !bytes.HasPrefix(data, []byte("# Dedup TTL")) || !bytes.Contains(data, []byte("![dedup TTL comparison]("+chart+")")) {
		t.Errorf("ttl --out ttl.md is not the Markdown tables showing the chart: %v\n%s", err, data)
	}
	if !strings.HasPrefix(out, "retrysim ttl ·") {
		t.Errorf("stdout should keep the text tables:\n%s", out)
	}
}

func TestPoliciesChart(t *testing.T) {
	chart := filepath.Join(t.TempDir(), "schedules.png")
	out, _ := mustRun(t, nil, "policies", "--chart", chart)
	if !strings.Contains(out, "stripe") {
		t.Errorf("policies --chart should still list the policies:\n%s", out)
	}
	data, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := png.Decode(bytes.NewReader(data)); err != nil {
		t.Errorf("not a PNG: %v", err)
	}
}

func TestOutputBadInput(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unknown extension", []string{"run", "--dry-run", "--out", filepath.Join(dir, "x.gif")}, "x.gif"},
		{"one file twice", []string{"run", "--dry-run", "--out", filepath.Join(dir, "x.json"), "--out", filepath.Join(dir, "x.json")}, "x.json is named twice"},
		{"unknown format", []string{"run", "--dry-run", "--format", "yaml"}, "valid: text, json, markdown, csv, html, png, svg, junit"},
		{"unknown chart", []string{"run", "--dry-run", "--chart", "pie"}, "--chart"},
		{"unknown rows", []string{"run", "--dry-run", "--by", "hour"}, "--by"},
		{"rows per provider", []string{"run", "--dry-run", "--by", "provider"}, "--chart storm"},
		{"missing results", []string{"report", filepath.Join(dir, "none.jsonl")}, "none.jsonl"},
		{"policies chart extension", []string{"policies", "--chart", filepath.Join(dir, "s.gif")}, "--chart"},
		{"ttl format", []string{"ttl", "--format", "csv"}, "valid: text, json, markdown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, _, errs := retrysim(t, nil, c.args...)
			if code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			if !strings.Contains(errs, c.want) {
				t.Errorf("stderr %q should name %q", errs, c.want)
			}
		})
	}
	// A stream that is not one names the line.
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := retrysim(t, nil, "report", bad); code != exitBadInput || !strings.Contains(errs, "line 1") {
		t.Errorf("bad stream: exit %d, stderr %q", code, errs)
	}
}

// One run writes every artefact a CI job wants: JUnit on stdout, and each
// --out file in the format its extension names, a picture named after a
// chart drawing that chart.
func TestEveryArtefactFromOneRun(t *testing.T) {
	dir := t.TempDir()
	md, png1, html, storm := filepath.Join(dir, "summary.md"), filepath.Join(dir, "timeline.png"), filepath.Join(dir, "report.html"), filepath.Join(dir, "storm.svg")
	code, out, errs := retrysim(t, nil, "run", "--provider", "stripe", "--dry-run", "--scenario", "outage", "--events", "5",
		"--fail-on", "lost-events", "--format", "junit", "--out", md, "--out", png1, "--out", html, "--out", storm)
	if code != 0 && code != exitGate {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "<testsuites") || !strings.Contains(out, `time="`) {
		t.Errorf("stdout is not JUnit with time attributes:\n%s", out)
	}
	read := func(path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if s := read(md); !strings.HasPrefix(s, "# retrysim report") || !strings.Contains(s, "![retrysim chart]("+png1+")") || !strings.Contains(s, "![retrysim chart]("+storm+")") {
		t.Errorf("summary.md is not the Markdown report showing the timeline and the storm:\n%s", s)
	}
	if _, err := png.Decode(strings.NewReader(read(png1))); err != nil {
		t.Errorf("timeline.png: %v", err)
	}
	if s := read(html); !strings.HasPrefix(s, "<!DOCTYPE html>") || !strings.Contains(s, `<table id="attempts">`) {
		t.Errorf("report.html is not the HTML report")
	}
	if s := read(storm); !strings.Contains(s, "<svg") || !strings.Contains(s, "Retry storm") {
		t.Errorf("storm.svg does not draw the storm chart")
	}
}
