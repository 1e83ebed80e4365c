package output

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/simulator"
)

// File is one file a report is written to, and the format its name says.
type File struct {
	Path, Format string
}

// ReportFormats are the formats run, proxy and report write to stdout:
// every report format, and JUnit for the gates.
func ReportFormats() []string {
	return append(slices.Clone(report.Formats()), report.FormatJUnit)
}

// CheckFormat checks the format asked for stdout against valid, the
// formats the caller writes there.
func CheckFormat(format string, valid []string, sp simulator.Spelling) error {
	if err := report.CheckFormat(format, valid); err != nil {
		return fmt.Errorf("%s: %w", sp.Of(report.SettingFormat), err)
	}
	return nil
}

// Files resolves the files a report is also written to: each takes the
// format its name says, and must be writable and named once. A writer
// that writes only some text formats lists them in writes (charts are
// always written) and names itself in writer for the error; nil writes
// means every format.
func Files(paths []string, writer string, writes []string, sp simulator.Spelling) ([]File, []error) {
	var files []File
	var errs []error
	out := sp.Of(report.SettingOut)
	seen := map[string]bool{}
	for _, path := range paths {
		f, err := report.FormatForPath(path)
		werr := outfile.CheckWritable(path)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", out, err))
		case werr != nil:
			errs = append(errs, fmt.Errorf("%s: %w", out, werr))
		case writes != nil && !report.IsChart(f) && !slices.Contains(writes, f):
			errs = append(errs, fmt.Errorf("%s: %s is %s; %s writes %s, png or svg", out, path, f, writer, strings.Join(writes, ", ")))
		case seen[path]:
			errs = append(errs, fmt.Errorf("%s: %s is named twice", out, path))
		default:
			files = append(files, File{Path: path, Format: f})
		}
		seen[path] = true
	}
	return files, errs
}

// ChartFor is the chart a picture file draws: the one its name starts
// with (storm.png, ttl-all.svg), so that one run can draw each; else
// chart.
func ChartFor(path, chart string) string {
	base := strings.ToLower(filepath.Base(path))
	for _, c := range report.Charts() {
		if strings.HasPrefix(base, c) {
			return c
		}
	}
	return chart
}

// ParseTTLs reads dedup TTL choices, comma-separated, by the rules of
// report.ParseTTLs, naming the setting in the error.
func ParseTTLs(s string, sp simulator.Spelling) ([]time.Duration, error) {
	ds, err := report.ParseTTLs(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Of(report.SettingTTLs), err)
	}
	return ds, nil
}
