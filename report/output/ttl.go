package output

import (
	"errors"
	"fmt"
	"io"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/simulator"
)

// WriteTTL writes the TTL comparison of rep: the TTL chart to each
// picture file first, so the Markdown can show it, then the tables to
// each other file, then the tables in format to stdout. Each output is
// written or fails on its own; the error names each that failed.
func WriteTTL(stdout io.Writer, files []File, rep *report.Report, format string, sp simulator.Spelling) error {
	out := sp.Of(report.SettingOut)
	var failed []error
	for _, f := range files {
		if !report.IsChart(f.Format) {
			continue
		}
		opts := report.ChartOptions{Chart: report.ChartTTL}
		if err := outfile.Write(f.Path, func(w io.Writer) error { return report.WriteChart(w, rep, f.Format, opts) }); err != nil {
			failed = append(failed, fmt.Errorf("%s %s: %w", out, f.Path, err))
			continue
		}
		if rep.Chart == "" {
			rep.Chart = f.Path
		}
	}
	for _, f := range files {
		if report.IsChart(f.Format) {
			continue
		}
		if err := outfile.Write(f.Path, func(w io.Writer) error { return report.WriteTTL(w, rep, f.Format) }); err != nil {
			failed = append(failed, fmt.Errorf("%s %s: %w", out, f.Path, err))
		}
	}
	if format == report.FormatText {
		rep.Width = TerminalWidth(stdout)
	}
	if err := report.WriteTTL(stdout, rep, format); err != nil {
		failed = append(failed, fmt.Errorf("the tables to stdout: %w", err))
	}
	return errors.Join(failed...)
}
