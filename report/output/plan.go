package output

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/report/outfile"
	"github.com/retrysim/retrysim/report/redact"
	"github.com/retrysim/retrysim/simulator"
)

// Plan is a checked Request: what to write where.
type Plan struct {
	// Format is what goes to stdout.
	Format string
	// Files are the other outputs, in the order given.
	Files []File
	// Chart draws the pictures; a file's name may pick another chart
	// (ChartFor).
	Chart report.ChartOptions
	// TTLs are the dedup TTL choices the report compares.
	TTLs []time.Duration
	// Keep is how many events' timelines the aggregator keeps
	// (report.Keep, for the most demanding output).
	Keep int
	// Verbose asks for the full text report.
	Verbose bool
	// Secrets are redacted from a report written to a file.
	Secrets *redact.Set
	// Notes is where an output skipped, not failed, is said (stderr); nil
	// says nothing.
	Notes io.Writer
	// Spelling spells the settings in errors and notes.
	Spelling simulator.Spelling
}

// Timeline is how many events' timelines the text report shows.
func (p *Plan) Timeline() int {
	if p.Keep == 0 {
		return 0
	}
	return report.DefaultTimeline
}

// AddConfiguredTTL adds the dedup TTL the handler uses to the TTL choices
// the report compares, in order, so the table shows what that TTL lets
// through even without the ttl-too-short gate; and the timeline chart
// draws it unless other choices were given.
func (p *Plan) AddConfiguredTTL(ttl time.Duration) {
	if ttl <= 0 {
		return
	}
	given := len(p.TTLs) > 0
	p.TTLs = report.WithTTLChoice(p.TTLs, ttl)
	if !given {
		p.Chart.TTL = ttl
	}
}

// Report is the report of runs as the plan writes it: its TTL choices
// and timeline, timeouts for the latency headroom, and the gates judged
// by opts with those timeouts. run, proxy and report all make theirs here,
// so that the same records give the same report.
func (p *Plan) Report(runs []*report.Summary, timeouts []report.Timeout, gates []report.Gate, opts report.GateOptions) *report.Report {
	rep := &report.Report{Runs: runs, TTLs: p.TTLs, Timeline: p.Timeline(), Timeouts: timeouts, Spelling: p.Spelling}
	opts.Timeouts = timeouts
	rep.Gates = report.CheckGates(runs, gates, opts)
	return rep
}

// Write writes rep: every file in the format its name says, the pictures
// first so the Markdown and HTML can show them, then the report in Format
// to stdout (nil: not at all). Each output is written or fails on its
// own: the error names each that failed (a full disk), and the others are
// written all the same. A chart with nothing to draw (no attempt was
// sent) is skipped with a note, not a failure. A picture asked for a
// terminal is refused with a *TerminalError, once the files are written.
func (p *Plan) Write(stdout io.Writer, rep *report.Report) error {
	rep.Verbose = p.Verbose
	out := p.Spelling.Of(report.SettingOut)
	var failed []error
	for _, f := range p.Files {
		if !report.IsChart(f.Format) {
			continue
		}
		opts := p.Chart
		opts.Chart = ChartFor(f.Path, p.Chart.Chart)
		err := outfile.Write(f.Path, func(w io.Writer) error { return report.WriteChart(w, rep, f.Format, opts) })
		switch {
		case errors.Is(err, report.ErrNoData):
			p.note("%s %s: not written: %v", out, f.Path, err)
			continue
		case err != nil:
			failed = append(failed, fmt.Errorf("%s %s: %w", out, f.Path, err))
			continue
		}
		if rep.Chart == "" {
			rep.Chart = f.Path
		}
		rep.ChartFiles = append(rep.ChartFiles, f.Path)
	}
	for _, f := range p.Files {
		if report.IsChart(f.Format) {
			continue
		}
		if err := outfile.Write(f.Path, func(w io.Writer) error {
			rw := p.Secrets.Writer(w)
			if err := p.render(rw, rep, f.Format); err != nil {
				return err
			}
			return rw.Flush()
		}); err != nil {
			failed = append(failed, fmt.Errorf("%s %s: %w", out, f.Path, err))
		}
	}
	if stdout != nil {
		if err := p.writeStdout(stdout, rep); err != nil {
			var te *TerminalError
			if errors.As(err, &te) {
				return err
			}
			failed = append(failed, fmt.Errorf("the report to stdout: %w", err))
		}
	}
	return errors.Join(failed...)
}

// WriteJUnit writes the files, and the gates as JUnit XML to stdout.
func (p *Plan) WriteJUnit(stdout io.Writer, rep *report.Report) error {
	err := p.Write(nil, rep)
	if jerr := report.WriteJUnit(stdout, rep); jerr != nil {
		err = errors.Join(err, fmt.Errorf("the JUnit report to stdout: %w", jerr))
	}
	return err
}

// writeStdout writes the report in Format to stdout.
func (p *Plan) writeStdout(stdout io.Writer, rep *report.Report) error {
	if report.IsChart(p.Format) {
		if IsTerminal(stdout) {
			return &TerminalError{Format: p.Format, sp: p.Spelling}
		}
		err := report.WriteChart(stdout, rep, p.Format, p.Chart)
		if errors.Is(err, report.ErrNoData) {
			p.note("%s %s: no picture written to stdout: %v", p.Spelling.Of(report.SettingFormat), p.Format, err)
			return nil
		}
		return err
	}
	if p.Format == report.FormatText {
		rep.Width = TerminalWidth(stdout)
		defer func() { rep.Width = 0 }()
	}
	return report.Write(stdout, rep, p.Format)
}

// render writes one text format to a file: the HTML report draws the
// charts of the plan's chart options in it.
func (p *Plan) render(w io.Writer, rep *report.Report, format string) error {
	if format == report.FormatHTML {
		return report.WriteHTML(w, rep, p.Chart)
	}
	return report.Write(w, rep, format)
}

// note says on Notes what became of an output that was not a failure.
func (p *Plan) note(format string, args ...any) {
	if p.Notes != nil {
		fmt.Fprintf(p.Notes, "retrysim: "+format+"\n", args...)
	}
}

// TerminalError refuses to write a picture to a terminal: bad input, not
// a failed write.
type TerminalError struct {
	// Format is the picture's format (png, svg).
	Format string
	sp     simulator.Spelling
}

// Error says what to do instead, in the caller's spelling.
func (e *TerminalError) Error() string {
	return fmt.Sprintf("%s %s writes a picture: name a file with %s FILE.%s, or redirect stdout", e.sp.Of(report.SettingFormat), e.Format, e.sp.Of(report.SettingOut), e.Format)
}
