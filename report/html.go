package report

import (
	"bufio"
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/simulator"
)

// FormatHTML is the HTML report: one self-contained page.
const FormatHTML = "html"

//go:embed html/report.tmpl
var htmlSource string

var htmlTemplate = template.Must(template.New("report").Parse(htmlSource))

// MaxHTMLEvents is how many events' attempts the HTML report's table
// lists at most, per run: a sample with every kind of fate (see
// Summary.Sample) past it, so a page of a million events stays small and
// fast to open; the table says how many it shows of how many, and the CSV
// report has them all.
const MaxHTMLEvents = 200

// MaxHTMLAttempts caps the table's rows besides, for runs whose events
// have many attempts each.
const MaxHTMLAttempts = 5000

// WriteHTML writes the report as one self-contained HTML page that loads
// nothing from the network: each run's header, verdict, what to change and
// TTL comparison, the charts inline as SVG (drawn with opts, one of each
// kind), and the attempts of every event, or of a sample of them with every
// kind of fate in a large run, in a table that sorts and filters with a
// few lines of plain JavaScript. It shows the same facts as the text
// report. The page is written through a buffer.
func WriteHTML(w io.Writer, rep *Report, opts ChartOptions) error {
	page := htmlPage{Title: "retrysim report", Columns: htmlColumns}
	if len(rep.Runs) == 1 {
		page.Title = "retrysim report · " + rep.Runs[0].Policy + " · " + rep.Runs[0].Scenario
	}
	if v := chartVerdict(rep); v != "" {
		if sig := chartSignature(rep); sig != "" {
			v += " · " + sig
		}
		page.Title = v + " — " + page.Title
	}
	if len(rep.Runs) > 0 {
		page.Overall = overallWords(rep)
	}
	for _, r := range rep.Runs {
		page.Runs = append(page.Runs, htmlRunOf(rep, r))
	}
	if len(rep.Runs) > 1 {
		page.Compare = compareTableRows(rep)
		page.TTLCompare = ttlCompareRows(rep)
	}
	for _, chart := range Charts() {
		o := opts
		o.Chart = chart
		var buf bytes.Buffer
		err := WriteChart(&buf, rep, FormatSVG, o)
		if errors.Is(err, ErrNoData) {
			continue
		}
		if err != nil {
			return fmt.Errorf("%s chart: %w", chart, err)
		}
		svg := buf.String()
		if i := strings.Index(svg, "<svg"); i > 0 {
			svg = svg[i:] // inline: no XML prolog
		}
		page.Charts = append(page.Charts, htmlChart{Name: chartNames[chart], SVG: template.HTML(svg)}) // drawn here; the SVG writer escapes its text
	}
	if err := page.addAttempts(rep); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, bufferSize)
	if err := htmlTemplate.Execute(bw, page); err != nil {
		return err
	}
	return bw.Flush()
}

// chartNames are the captions of the charts in the HTML report.
var chartNames = map[string]string{
	ChartTimeline: "Timeline: a sample of events with every kind of fate, on virtual time",
	ChartTTL:      "Dedup TTL: duplicates let through by each TTL choice",
	ChartStorm:    "Storm: attempts per minute, as a recovering endpoint must absorb them",
}

type htmlPage struct {
	Title, Overall string
	Runs           []htmlRun
	Compare        [][]string
	TTLCompare     [][]string
	Charts         []htmlChart
	Columns        []htmlColumn
	Attempts       [][]htmlCell
	// Shown says which events' attempts the table holds, when not all.
	Shown []string
}

type htmlRun struct {
	Header, Target, Verdict, VerdictLine, Duplicates, CauseHead, Causes string
	Advice                                                              []string
	TTL                                                                 string
	TTLRows                                                             [][]string
	Delivered, Signature, Latency                                       string
}

type htmlChart struct {
	Name string
	SVG  template.HTML
}

type htmlColumn struct{ Name, Type string }

type htmlCell struct {
	Text string
	Num  bool
	Sort string
}

var htmlColumns = []htmlColumn{
	{"provider", "text"}, {"event", "text"}, {"attempt", "num"}, {"at (virtual, since the run's start)", "num"},
	{"outcome", "text"}, {"status", "num"}, {"handler status", "num"}, {"reached handler", "text"},
	{"latency ms", "num"}, {"fault", "text"}, {"fate", "text"}, {"processed (times)", "num"},
}

func htmlRunOf(rep *Report, r *Summary) htmlRun {
	t := r.TTL(rep.TTLs)
	delivered := deliveredLine(r) + " · " + attemptsLine(r)
	if !r.DisabledAt.IsZero() {
		delivered += fmt.Sprintf(" · ENDPOINT DISABLED at +%s: %s", dur(r.DisabledAt.Sub(r.Start)), disabledWords(r))
	}
	return htmlRun{
		Header: headerLine(r), Target: r.Target, Verdict: string(r.Verdict()), VerdictLine: rep.words().verdictLine(r),
		Duplicates: duplicatesLine(r), CauseHead: causeHead(r), Causes: causeLine(r), Advice: rep.words().adviceLines(r, rep.Timeouts),
		TTL: ttlHeadline(r, t), TTLRows: ttlChoiceRows(t),
		Delivered: delivered, Signature: rep.words().signatureLine(r), Latency: r.latencyLine(),
	}
}

// overallWords is the recommendation over every run, as the text says it.
func overallWords(rep *Report) string {
	rec, man := rep.RecommendedTTL(), rep.RecommendedWithManual()
	s := "recommend a dedup TTL of " + dur(rec)
	if man > rec {
		s += fmt.Sprintf("; %s to also cover manual redelivery", dur(man))
	}
	return s
}

// addAttempts fills the attempts table: every event's attempts, or a
// sample's, saying which.
func (p *htmlPage) addAttempts(rep *Report) error {
	rows := 0
	for _, r := range rep.Runs {
		sh, err := r.Sample(MaxHTMLEvents)
		if err != nil {
			return err
		}
		cut := 0
		for _, ev := range sh.Events {
			for i, a := range ev.Attempts {
				if rows >= MaxHTMLAttempts {
					cut++
					continue
				}
				rows++
				p.Attempts = append(p.Attempts, htmlAttempt(r, ev, i, a))
			}
		}
		if !sh.Every || cut > 0 {
			s := r.Policy + ": the attempts of " + sampleHead(sh)
			if k := sampleShows(sh); k != "" {
				s += " (" + k + ")"
			}
			if cut > 0 {
				s += fmt.Sprintf(", %s of them left out past %s rows", thousands(cut), thousands(MaxHTMLAttempts))
			}
			p.Shown = append(p.Shown, s+"; the CSV report has every attempt")
		}
	}
	return nil
}

// htmlAttempt is one row of the attempts table: ev's attempt a, its i-th.
func htmlAttempt(r *Summary, ev *EventTimeline, i int, a simulator.Record) []htmlCell {
	// How often the event was processed (before the run too, as the
	// text's mark counts it) is said once, on its first row.
	processed := htmlCell{Num: true, Sort: "-1"}
	if n := r.Times(ev.ID); r.EffectsKnown {
		processed = htmlCell{Num: true, Sort: strconv.Itoa(n)}
		if i == 0 {
			processed.Text = strconv.Itoa(n)
		}
	}
	at := a.Time.Sub(r.Start)
	// An attempt that got no answer has no latency to show, not 0 ms; nor
	// has one of a dry run, which modelled the answer and measured nothing.
	latency := htmlCell{Num: true, Sort: "-1"}
	if (a.HandlerStatus != 0 || a.Status != 0) && !r.Modelled() {
		latency = htmlCell{Text: fmtFloat(msf(a.Latency)), Num: true, Sort: fmtFloat(msf(a.Latency))}
	}
	return []htmlCell{
		{Text: r.Policy}, {Text: ev.ID}, numCell(a.Attempt),
		{Text: "+" + dur(at), Num: true, Sort: fmtFloat(at.Seconds())},
		{Text: string(a.Outcome)}, numCell(a.Status), numCell(a.HandlerStatus), {Text: strconv.FormatBool(a.Reached)},
		latency, {Text: a.Fault}, {Text: ev.Fate}, processed,
	}
}

func numCell(n int) htmlCell {
	s := strconv.Itoa(n)
	if n == 0 {
		return htmlCell{Num: true, Sort: "0"}
	}
	return htmlCell{Text: s, Num: true, Sort: s}
}

// ttlCompareRows is the side-by-side TTL table, header first: for each TTL
// choice and run, the duplicates let through in this run and the worst
// case, as the text's side-by-side table says them.
func ttlCompareRows(rep *Report) [][]string {
	head := []string{"TTL"}
	ttls := make([]TTLAnalysis, len(rep.Runs))
	for i, r := range rep.Runs {
		ttls[i] = r.TTL(rep.TTLs)
		head = append(head, r.Policy)
	}
	rows := [][]string{head}
	for j, ttl := range rep.ttlChoices() {
		row := []string{dur(ttl)}
		for i := range rep.Runs {
			row = append(row, compactCell(ttls[i].Choices[j], ttls[i].Retries))
		}
		rows = append(rows, row)
	}
	return rows
}
