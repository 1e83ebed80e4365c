// Package output writes a report where it was asked for: to stdout in one
// format, and to each named file in the format its name says (.md, .json,
// .csv, .txt, .html, or a chart as .png or .svg). It checks such a request
// whole before anything runs, and writes each output or fails on its own.
// Its errors name the settings as the caller spells them
// (simulator.Spelling): the retrysim command says --out and --format.
package output

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// Request is how a report is to be written, as given: the output settings
// that run, proxy and report share, so that all three write the same for
// the same records.
type Request struct {
	// Format is what goes to stdout: one of report.Formats. A caller that
	// writes the gates as JUnit asks for text here and calls
	// Plan.WriteJUnit; the check lists JUnit among the valid formats
	// (ReportFormats), as the caller offers it.
	Format string
	// Files are the files the report is also written to, in the format
	// each name says.
	Files []string
	// Chart is the chart a picture file draws unless its name names one
	// (ChartFor); By the timeline chart's rows; LogTime its logarithmic
	// time axis.
	Chart   string
	By      string
	LogTime bool
	// TTLs are the dedup TTL choices to compare, as report.ParseTTLs
	// reads them; "" for report's defaults.
	TTLs string
	// NoTimeline leaves the per-event timeline out of the report.
	NoTimeline bool
	// Verbose asks for the full text report.
	Verbose bool
}

// Plan checks r, returning every problem at once: stdout keeps Format and
// each file takes the format its name says, so the two never disagree.
// The plan is returned even with errors, so that more can be checked.
func (r Request) Plan(sp simulator.Spelling) (*Plan, []error) {
	var errs []error
	p := &Plan{Format: r.Format, Verbose: r.Verbose, Spelling: sp}
	if err := CheckFormat(r.Format, ReportFormats(), sp); err != nil {
		errs = append(errs, err)
	}
	var fileErrs []error
	p.Files, fileErrs = Files(r.Files, "", nil, sp)
	errs = append(errs, fileErrs...)
	if !slices.Contains(report.Charts(), r.Chart) {
		errs = append(errs, fmt.Errorf("%s: %q is not a chart (valid: %s)", sp.Of(report.SettingChart), r.Chart, strings.Join(report.Charts(), ", ")))
	}
	if err := checkBy(r.By, sp); err != nil {
		errs = append(errs, err)
	}
	if r.TTLs != "" {
		var err error
		if p.TTLs, err = ParseTTLs(r.TTLs, sp); err != nil {
			errs = append(errs, err)
		}
	}
	p.Chart = report.ChartOptions{Chart: r.Chart, By: r.By, Log: r.LogTime}
	if len(p.TTLs) > 0 {
		// The timeline draws the first TTL asked about, so a team can see
		// what its own choice lets through.
		p.Chart.TTL = p.TTLs[0]
	}
	p.Keep = report.Keep(p.Format, false, r.NoTimeline)
	for _, f := range p.Files {
		if k := report.Keep(f.Format, false, r.NoTimeline); k < 0 || (p.Keep >= 0 && k > p.Keep) {
			p.Keep = k
		}
	}
	return p, errs
}

// checkBy checks a timeline chart's row kind.
func checkBy(by string, sp simulator.Spelling) error {
	switch by {
	case report.ByEvent, report.ByTenant:
		return nil
	case report.ByProvider:
		return fmt.Errorf("%[1]s provider: no longer drawn: one row per provider merged every event's marks into solid bars; compare providers with %[2]s storm (their attempts over time), or keep %[1]s event: its rows are a sample of each provider's events with every kind of fate", sp.Of(report.SettingBy), sp.Of(report.SettingChart))
	}
	return fmt.Errorf("%s: %q is not a row kind (valid: event, tenant)", sp.Of(report.SettingBy), by)
}
