package main

import (
	"context"
	"io"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/simulator/interrupt"
)

// runInterruptNote is what a command that writes a report says.
var runInterruptNote = interrupt.Note{
	First: "finishing the attempts in flight and writing the partial report",
	Again: ", without a report",
}

// interruptible is interrupt.Context for a command: a later interrupt
// exits with status 130, keeping the results stream written so far (ended
// by an end record marked interrupted) and removing any other half-written
// output file. soft, when not nil, is the first signal's meaning.
func interruptible(parent context.Context, stderr io.Writer, note interrupt.Note, soft *interrupt.SoftEnd) (context.Context, func()) {
	return interrupt.Context(parent, stderr, interrupt.Options{Note: note, Soft: soft, ExitCode: exitInterrupted, Cleanup: outfile.RemovePending})
}

// runsCut reports whether an interrupt cut the runs short
// (report.RunsCut), ctx saying whether the user interrupted.
func runsCut(ctx context.Context, runs []*report.Summary, want int) bool {
	return report.RunsCut(runs, want, interrupt.Interrupted(ctx))
}
