package main

import (
	"github.com/retrysim/retrysim/report/advice"
	"github.com/retrysim/retrysim/report/output"
)

// reportFormats are the formats run, proxy and report write to stdout
// (output.ReportFormats).
func reportFormats() []string { return output.ReportFormats() }

// formatFlag checks --format against valid, the formats the command
// writes to stdout (output.CheckFormat).
func formatFlag(format string, valid []string) error {
	return output.CheckFormat(format, valid, advice.Flag)
}
