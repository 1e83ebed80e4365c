package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// PolicyFormats are the formats WritePolicies and WritePolicy write.
func PolicyFormats() []string {
	return []string{FormatText, FormatJSON, FormatMarkdown}
}

// WritePolicies writes the overview of every policy in all, one line a
// policy, in format (one of PolicyFormats); full adds every policy in full
// after it. The JSON is always a list of every policy in full.
func WritePolicies(w io.Writer, all []policies.Policy, format string, full bool) error {
	return buffered(w, func(w io.Writer) error { return writePolicies(w, all, format, full) })
}

func writePolicies(w io.Writer, all []policies.Policy, format string, full bool) error {
	switch format {
	case FormatJSON:
		out := make([]PolicyJSON, len(all))
		for i := range all {
			out[i] = NewPolicyJSON(&all[i])
		}
		return writeIndentedJSON(w, out)
	case FormatMarkdown:
		if err := writePolicyMarkdownTable(w, all); err != nil || !full {
			return err
		}
		return writeEach(w, all, writePolicyMarkdown)
	}
	if err := writePolicyTable(w, all); err != nil || !full {
		return err
	}
	return writeEach(w, all, writePolicyText)
}

// WritePolicy writes one policy in full, in format (one of PolicyFormats):
// its worked schedule, its rules and its sources.
func WritePolicy(w io.Writer, p *policies.Policy, format string) error {
	return buffered(w, func(w io.Writer) error { return writePolicy(w, p, format) })
}

func writePolicy(w io.Writer, p *policies.Policy, format string) error {
	switch format {
	case FormatJSON:
		return writeIndentedJSON(w, NewPolicyJSON(p))
	case FormatMarkdown:
		return writePolicyMarkdown(w, p)
	}
	return writePolicyText(w, p)
}

func writeIndentedJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// disableText says when the provider disables the endpoint, "-" when
// never.
func disableText(p *policies.Policy) string {
	var parts []string
	if p.Disable != nil {
		parts = append(parts, p.Disable.String())
	}
	for _, s := range p.Stop {
		if s.Disable {
			parts = append(parts, "on an answer "+s.String())
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, "; ")
}

// successText says which answers count as delivered.
func successText(p *policies.Policy) string {
	if len(p.Success) == 0 {
		return "any 2xx"
	}
	codes := make([]string, len(p.Success))
	for i, c := range p.Success {
		codes[i] = strconv.Itoa(c)
	}
	return "only " + strings.Join(codes, " or ")
}

// rulesText lists the policy's status rules in words, one per line.
func rulesText(p *policies.Policy) []string {
	out := []string{"delivered: " + successText(p) + " within " + p.Timeout.String()}
	if p.ConnectTimeout > 0 {
		out[0] += " (connect " + p.ConnectTimeout.String() + ")"
	}
	if p.FollowRedirects > 0 {
		out = append(out, fmt.Sprintf("redirects: follows up to %d", p.FollowRedirects))
	} else {
		out = append(out, "redirects: a 3xx is a failed delivery")
	}
	if len(p.RetryOn) > 0 {
		out = append(out, "retries only: "+strings.Join(p.RetryOn, ", ")+" (4xx, 5xx, ct = connect failed, rt = no answer in time)")
	}
	for _, s := range p.Stop {
		what := "stops the event's retries"
		if s.Disable {
			what = "disables the endpoint"
		}
		out = append(out, "stop: an answer "+s.String()+" "+what)
	}
	if ra := p.RetryAfter; ra != nil {
		on := "any failed answer"
		if len(ra.Statuses) > 0 {
			codes := make([]string, len(ra.Statuses))
			for i, c := range ra.Statuses {
				codes[i] = strconv.Itoa(c)
			}
			on = strings.Join(codes, ", ")
		}
		limit := ra.Max.D()
		if limit == 0 {
			limit = policies.DefaultRetryAfterMax
		}
		out = append(out, "Retry-After: honoured on "+on+", up to "+policies.FormatDuration(limit))
	}
	if p.URLOverrides {
		out = append(out, "URL fragment: #rc=…&rp=…&ct=…&rt=…&tt=… overrides retries and timeouts (not sent, not signed)")
	}
	if p.SignatureProbe != nil {
		out = append(out, "signature probe: "+p.SignatureProbe.String())
	}
	out = append(out, "dedup id: "+p.Wire().DedupField())
	if s, ok := policies.SchemeOf(p.Wire()); ok {
		line := "signature: " + strings.Join(s.Headers, ", ")
		switch {
		case s.Covers == policies.CoversNothing:
			line += " (a shared token, covering nothing)"
		case s.Tolerance > 0:
			line += "; a careful handler rejects a timestamp older than " + policies.FormatDuration(s.Tolerance)
		default:
			line += "; no timestamp: a replay looks like a retry, only dedup stops it"
		}
		out = append(out, line)
	}
	return out
}

// orDash writes d, or "-" when it is zero.
func orDash(d policies.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.String()
}

// writeEach writes every policy in full, each after a blank line, for
// --all.
func writeEach(w io.Writer, all []policies.Policy, write func(io.Writer, *policies.Policy) error) error {
	for i := range all {
		if _, err := io.WriteString(w, "\n"); err != nil {
			return err
		}
		if err := write(w, &all[i]); err != nil {
			return err
		}
	}
	return nil
}

// writePolicyTable writes the overview, one line a policy, wrapped to fit
// DefaultWidth columns.
func writePolicyTable(w io.Writer, all []policies.Policy) error {
	rows := [][]string{{"NAME", "ATTEMPTS", "SPAN", "TIMEOUT", "DISABLED", "MANUAL RESEND", "SUMMARY"}}
	for i := range all {
		p := &all[i]
		rows = append(rows, []string{EscapeText(p.Name), fmt.Sprint(p.MaxAttempts()), policies.FormatDuration(p.Window()),
			p.Timeout.String(), disableText(p), orDash(p.ManualRedelivery), EscapeText(p.Summary)})
	}
	return WriteTable(w, rows, DefaultWidth)
}

func writePolicyText(w io.Writer, p *policies.Policy) error {
	ew := &errWriter{w: w, field: EscapeText}
	ew.printf("%s — %s\n", p.Name, p.Summary)
	ew.printf("  wire format: %s · timeout %s", p.Provider, p.Timeout)
	if p.ConnectTimeout > 0 {
		ew.printf(" (connect %s)", p.ConnectTimeout)
	}
	ew.printf(" · %s over %s\n", counted(p.MaxAttempts(), "attempt", "attempts"), policies.FormatDuration(p.Window()))
	ew.printf("  disabled: %s · manual redelivery: %s\n", disableText(p), orDash(p.ManualRedelivery))
	for _, line := range rulesText(p) {
		ew.printf("  %s\n", line)
	}
	ew.printf("\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ew.printf("  worked schedule (every attempt failing):\n")
	fmt.Fprintln(tw, "\tattempt\tdelay\telapsed\t")
	for n := 1; n <= p.MaxAttempts(); n++ {
		delay := "-"
		if n > 1 {
			d, _ := p.Delay(n - 1)
			delay = policies.FormatDuration(d)
		}
		fmt.Fprintf(tw, "\t%d\t%s\t%s\t\n", n, delay, policies.FormatDuration(p.Offset(n)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	ew.printf("\n")
	writeWrapped(ew, "  source: ", "          ", p.Source, 92)
	writeWrapped(ew, "  notes:  ", "          ", p.Notes, 92)
	writeFactsText(ew, p)
	writePublicKey(ew, p)
	return ew.err
}

// writeFactsText writes the facts the built-in policy of p's name states,
// each with its basis, source and the date it was checked
// (policies/facts.yaml, docs/PROVIDERS.md's fact tables).
func writeFactsText(ew *errWriter, p *policies.Policy) {
	facts := policies.FactsOf(p.Name)
	if len(facts) == 0 {
		return
	}
	ew.printf("\n  facts (D provider's docs, C its code, S secondhand, I inferred):\n")
	for _, f := range facts {
		second := ""
		if f.Secondhand() {
			second = ", secondhand"
		}
		line := fmt.Sprintf("%s: %s — %s (%s%s, checked %s)", f.Fact, f.Value, f.Source, f.Basis, second, f.Checked)
		writeWrapped(ew, "    ", "      ", line, 90)
	}
}

// writeWrapped writes text wrapped to width, its first line after first
// and the others after indent: one printf a line, so that the escaping of
// each value leaves the line breaks alone (joined, they came out as a
// literal \n).
func writeWrapped(ew *errWriter, first, indent, text string, width int) {
	for i, line := range WrapWords(text, width) {
		lead := indent
		if i == 0 {
			lead = first
		}
		ew.printf("%s%s\n", lead, line)
	}
}

// writePublicKey writes, for a provider that signs with a private key, the
// public key a handler verifies with: that of the key retrysim signs with
// by default (seed 1), so a handler can be configured before the first run.
func writePublicKey(ew *errWriter, p *policies.Policy) {
	pub, ok := policies.PublicKey(p.Provider, policies.GenerateSecret(p.Provider, simulator.DefaultSeed))
	if !ok {
		return
	}
	ew.printf("\n  public key (of the key retrysim signs with by default, seed %d; a dry run prints any seed's):\n    %s\n",
		simulator.DefaultSeed, strings.TrimSpace(strings.ReplaceAll(pub, "\n", "\n    ")))
	if note := policies.PublicKeyNote(p.Provider); note != "" {
		ew.printf("    (%s)\n", note)
	}
}

func writePolicyMarkdownTable(w io.Writer, all []policies.Policy) error {
	ew := &errWriter{w: w, field: EscapeText}
	ew.printf("| Policy | Wire | Attempts | Span | Timeout | Disabled | Manual resend | Summary |\n")
	ew.printf("|---|---|--:|--:|--:|---|---|---|\n")
	for i := range all {
		p := &all[i]
		ew.printf("| `%s` | %s | %d | %s | %s | %s | %s | %s |\n", p.Name, p.Provider, p.MaxAttempts(),
			policies.FormatDuration(p.Window()), p.Timeout, mdCell(disableText(p)), orDash(p.ManualRedelivery), mdCell(p.Summary))
	}
	return ew.err
}

func writePolicyMarkdown(w io.Writer, p *policies.Policy) error {
	ew := &errWriter{w: w, field: EscapeText}
	ew.printf("## `%s`\n\n%s\n\n", p.Name, mdCell(p.Summary))
	ew.printf("- wire format: %s\n- attempts: %d over %s\n- disabled: %s\n- manual redelivery: %s\n",
		p.Provider, p.MaxAttempts(), policies.FormatDuration(p.Window()), mdCell(disableText(p)), orDash(p.ManualRedelivery))
	for _, line := range rulesText(p) {
		ew.printf("- %s\n", mdCell(line))
	}
	ew.printf("\n| Attempt | Delay | Elapsed |\n|--:|--:|--:|\n")
	for n := 1; n <= p.MaxAttempts(); n++ {
		delay := "-"
		if n > 1 {
			d, _ := p.Delay(n - 1)
			delay = policies.FormatDuration(d)
		}
		ew.printf("| %d | %s | %s |\n", n, delay, policies.FormatDuration(p.Offset(n)))
	}
	ew.printf("\n**Source:** %s\n\n**Notes:** %s\n", mdCell(p.Source), mdCell(p.Notes))
	if facts := policies.FactsOf(p.Name); len(facts) > 0 && ew.err == nil {
		ew.printf("\n**Facts of the built-in `%s`** (basis: D provider's docs, C provider's code, S secondhand, I inferred):\n\n", p.Name)
		if ew.err == nil {
			ew.err = policies.WriteFactTable(ew.w, facts, false)
		}
	}
	return ew.err
}

// mdCell escapes only the characters that would break a Markdown table
// cell, keeping the Markdown a policy's own source and notes carry
// (`code`); mdEscape is for text that must show as it is.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }
