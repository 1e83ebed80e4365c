package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
)

// reportFormats are the formats run, proxy and report write: every report
// format, and JUnit for the gates.
func reportFormats() []string { return append(slices.Clone(report.Formats()), report.FormatJUnit) }

// formatFlag resolves --format, for every command: format must be one of
// valid, the formats the command writes to stdout.
func formatFlag(format string, valid []string) error {
	if err := report.CheckFormat(format, valid); err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	return nil
}

// outFlag resolves --out, for every command: each file takes the format
// its extension names, and must be writable and named once. A command
// that writes only some text formats lists them in writes (charts are
// always written), and names itself in cmd for the error; nil writes
// means every format.
func outFlag(paths []string, cmd string, writes []string) ([]outFile, []error) {
	var files []outFile
	var errs []error
	seen := map[string]bool{}
	for _, path := range paths {
		f, err := report.FormatForPath(path)
		werr := outfile.CheckWritable(path)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("--out: %w", err))
		case werr != nil:
			errs = append(errs, fmt.Errorf("--out: %w", werr))
		case writes != nil && !report.IsChart(f) && !slices.Contains(writes, f):
			errs = append(errs, fmt.Errorf("--out: %s is %s; %s writes %s, png or svg", path, f, cmd, strings.Join(writes, ", ")))
		case seen[path]:
			errs = append(errs, fmt.Errorf("--out: %s is named twice", path))
		default:
			files = append(files, outFile{path: path, format: f})
		}
		seen[path] = true
	}
	return files, errs
}
