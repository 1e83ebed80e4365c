package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator"
)

// policyFormats are the formats 'retrysim policies' writes.
var policyFormats = []string{"text", "json", "markdown"}

func checkPolicyFormat(format string) error {
	if slices.Contains(policyFormats, format) {
		return nil
	}
	return badInput(fmt.Errorf("--format: %q is not a format (valid: %s)", format, strings.Join(policyFormats, ", ")))
}

func newPoliciesCmd() *cobra.Command {
	var format, chart string
	var full bool
	cmd := &cobra.Command{
		Use:   "policies",
		Short: "List the providers' retry policies",
		Long: `Policies lists every retry policy, the product's named defaults and the documented
variants side by side, with the custom ones of the config file (policies: in retrysim.yaml
or --config FILE): attempts, the span of the schedule, the timeout, when the provider
disables the endpoint, and how long manual redelivery stays possible. 'policies show NAME'
prints one policy's worked schedule and its sources; --all prints every policy that way after
the list (the JSON always carries each schedule's delays and elapsed times).

Examples:
  retrysim policies
  retrysim policies --format markdown --all > policies.md
  retrysim policies show stripe
  retrysim policies show shopify-2024 --format json
  retrysim policies --chart schedules.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := loadConfig(cmd); err != nil {
				return err
			}
			if err := checkPolicyFormat(format); err != nil {
				return err
			}
			var all []policies.Policy
			for _, n := range catalogue.Names() {
				p, _ := lookupPolicy(n)
				all = append(all, p)
			}
			if chart != "" {
				if err := writeSchedulesChart(chart, all); err != nil {
					return err
				}
			}
			switch format {
			case "json":
				out := make([]policyJSON, len(all))
				for i := range all {
					out[i] = toPolicyJSON(&all[i])
				}
				return writeJSON(cmd.OutOrStdout(), out)
			case "markdown":
				if err := writePolicyMarkdownTable(cmd.OutOrStdout(), all); err != nil || !full {
					return err
				}
				return writeEach(cmd.OutOrStdout(), all, writePolicyMarkdown)
			}
			if err := writePolicyTable(cmd.OutOrStdout(), all, !full); err != nil || !full {
				return err
			}
			return writeEach(cmd.OutOrStdout(), all, writePolicyText)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: "+strings.Join(policyFormats, ", "))
	cmd.Flags().BoolVar(&full, "all", false, "after the list, print every policy in full: worked schedule, rules and sources")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw every policy's attempt times on one time axis to FILE (.png or .svg)")
	var showFormat string
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one policy's worked schedule, rules and sources",
		Long: `Show prints one policy: every attempt with its delay and elapsed time (every attempt
failing), the timeout, what counts as success, the stop signals, the disable rule, the
manual-redelivery window, and where each number comes from.

Examples:
  retrysim policies show stripe
  retrysim policies show github --format json
  retrysim policies show svix --format markdown`,
		Args: oneArg("the name of a policy, e.g. stripe ('retrysim policies' lists them)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := loadConfig(cmd); err != nil {
				return err
			}
			if err := checkPolicyFormat(showFormat); err != nil {
				return err
			}
			p, err := lookupPolicy(args[0])
			if err != nil {
				return badInput(fmt.Errorf("unknown policy %q (valid: %s)", args[0], strings.Join(catalogue.Names(), ", ")))
			}
			switch showFormat {
			case "json":
				return writeJSON(cmd.OutOrStdout(), toPolicyJSON(&p))
			case "markdown":
				return writePolicyMarkdown(cmd.OutOrStdout(), &p)
			}
			return writePolicyText(cmd.OutOrStdout(), &p)
		},
	}
	show.Flags().StringVar(&showFormat, "format", "text", "output format: "+strings.Join(policyFormats, ", "))
	cmd.AddCommand(show)
	return cmd
}

// policyJSON is the JSON contract of `retrysim policies show NAME --format json`.
type policyJSON struct {
	Name          string    `json:"name"`
	Provider      string    `json:"provider"`
	MaxAttempts   int       `json:"max_attempts"`
	DelaysSeconds []float64 `json:"delays_seconds"`
	// OffsetsSeconds is the worked table's elapsed column: when each
	// attempt comes after the first, every attempt failing.
	OffsetsSeconds          []float64    `json:"offsets_seconds"`
	TimeoutSeconds          float64      `json:"timeout_seconds"`
	WindowSeconds           float64      `json:"window_seconds"`
	Disable                 *disableJSON `json:"disable"`
	ManualRedeliverySeconds float64      `json:"manual_redelivery_seconds"`
	Source                  string       `json:"source"`
	Notes                   string       `json:"notes"`

	// Added to the contract: the status rules.
	Summary               string          `json:"summary"`
	ConnectTimeoutSeconds float64         `json:"connect_timeout_seconds"`
	FollowRedirects       int             `json:"follow_redirects"`
	SuccessStatuses       []int           `json:"success_statuses"` // empty: any 2xx
	RetryOn               []string        `json:"retry_on"`         // empty: every failure
	Stop                  []stopJSON      `json:"stop"`
	RetryAfter            *retryAfterJSON `json:"retry_after"`
	URLOverrides          bool            `json:"url_overrides"`
	// SignatureProbeExpect is the status the provider's invalid-signature
	// probe must get, 0 when it sends none.
	SignatureProbeExpect int `json:"signature_probe_expect,omitempty"`
	// SignatureToleranceSeconds is how old a signed timestamp a careful
	// handler accepts, 0 when the scheme signs none.
	SignatureToleranceSeconds float64  `json:"signature_tolerance_seconds"`
	EventTypes                []string `json:"event_types"` // empty: any
	DefaultEventType          string   `json:"default_event_type"`
	DedupField                string   `json:"dedup_field"`
}

type disableJSON struct {
	ConsecutiveFailures int     `json:"consecutive_failures"`
	WithinSeconds       float64 `json:"within_seconds"`
	// Added to the contract: the other forms of the rule.
	FailureRate       float64 `json:"failure_rate,omitempty"`
	MinAttempts       int     `json:"min_attempts,omitempty"`
	FailingForSeconds float64 `json:"failing_for_seconds,omitempty"`
	Text              string  `json:"text"`
}

type stopJSON struct {
	Header  string `json:"header,omitempty"`
	Value   string `json:"value,omitempty"`
	Status  int    `json:"status,omitempty"`
	Disable bool   `json:"disable"`
}

type retryAfterJSON struct {
	Statuses   []int   `json:"statuses"`
	MaxSeconds float64 `json:"max_seconds"`
}

func toPolicyJSON(p *policies.Policy) policyJSON {
	out := policyJSON{
		Name: p.Name, Provider: p.Provider, MaxAttempts: p.MaxAttempts(), DelaysSeconds: []float64{},
		TimeoutSeconds: p.Timeout.D().Seconds(), WindowSeconds: p.Window().Seconds(),
		ManualRedeliverySeconds: p.ManualRedelivery.D().Seconds(), Source: p.Source, Notes: p.Notes,
	}
	for _, d := range p.Delays() {
		out.DelaysSeconds = append(out.DelaysSeconds, d.Seconds())
	}
	for n := 1; n <= p.MaxAttempts(); n++ {
		out.OffsetsSeconds = append(out.OffsetsSeconds, p.Offset(n).Seconds())
	}
	if p.Disable != nil {
		out.Disable = &disableJSON{ConsecutiveFailures: p.Disable.ConsecutiveFailures, WithinSeconds: p.Disable.Within.D().Seconds(),
			FailureRate: p.Disable.FailureRate, MinAttempts: p.Disable.MinAttempts,
			FailingForSeconds: p.Disable.FailingFor.D().Seconds(), Text: p.Disable.String()}
	}
	out.Summary, out.ConnectTimeoutSeconds, out.FollowRedirects = p.Summary, p.ConnectTimeout.D().Seconds(), p.FollowRedirects
	out.SuccessStatuses, out.RetryOn, out.Stop = nonNil(p.Success), nonNil(p.RetryOn), []stopJSON{}
	for _, s := range p.Stop {
		out.Stop = append(out.Stop, stopJSON{Header: s.Header, Value: s.Value, Status: s.Status, Disable: s.Disable})
	}
	if p.RetryAfter != nil {
		limit := p.RetryAfter.Max.D()
		if limit == 0 {
			limit = policies.DefaultRetryAfterMax
		}
		out.RetryAfter = &retryAfterJSON{Statuses: nonNil(p.RetryAfter.Statuses), MaxSeconds: limit.Seconds()}
	}
	out.URLOverrides = p.URLOverrides
	if p.SignatureProbe != nil {
		out.SignatureProbeExpect = p.SignatureProbe.Expect
	}
	if s, ok := policies.SchemeOf(p.Wire()); ok {
		out.SignatureToleranceSeconds = s.Tolerance.Seconds()
	}
	w := p.Wire()
	out.EventTypes, out.DedupField = nonNil(policies.EventTypes(w)), w.DedupField()
	out.DefaultEventType = p.EventType
	if out.DefaultEventType == "" {
		out.DefaultEventType = w.DefaultEventType()
	}
	return out
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

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

// writePolicyTable writes the overview, one line a policy; hint adds where
// the details are.
func writePolicyTable(w io.Writer, all []policies.Policy, hint bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tATTEMPTS\tSPAN\tTIMEOUT\tDISABLED\tMANUAL RESEND\tSUMMARY")
	for i := range all {
		p := &all[i]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.MaxAttempts(), policies.FormatDuration(p.Window()),
			p.Timeout, disableText(p), orDash(p.ManualRedelivery), p.Summary)
	}
	if err := tw.Flush(); err != nil || !hint {
		return err
	}
	_, err := fmt.Fprintln(w, "\n'retrysim policies show NAME' prints a policy's worked schedule and sources; --all prints them all.")
	return err
}

func writePolicyText(w io.Writer, p *policies.Policy) error {
	ew := &errPrinter{w: w}
	ew.printf("%s — %s\n", p.Name, p.Summary)
	ew.printf("  wire format: %s · timeout %s", p.Provider, p.Timeout)
	if p.ConnectTimeout > 0 {
		ew.printf(" (connect %s)", p.ConnectTimeout)
	}
	ew.printf(" · %d attempts over %s\n", p.MaxAttempts(), policies.FormatDuration(p.Window()))
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
	ew.printf("\n  source: %s\n", wrap(p.Source, 92, "          "))
	ew.printf("  notes:  %s\n", wrap(p.Notes, 92, "          "))
	if pub, ok := policies.PublicKey(p.Provider, policies.GenerateSecret(p.Provider, simulator.DefaultSeed)); ok {
		ew.printf("\n  public key (of the key run signs with by default, --seed %d; retrysim run --dry-run --provider %s --seed N prints any seed's):\n    %s\n",
			simulator.DefaultSeed, p.Name, strings.TrimSpace(strings.ReplaceAll(pub, "\n", "\n    ")))
		if note := policies.PublicKeyNote(p.Provider); note != "" {
			ew.printf("    (%s)\n", note)
		}
	}
	return ew.err
}

func writePolicyMarkdownTable(w io.Writer, all []policies.Policy) error {
	ew := &errPrinter{w: w}
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
	ew := &errPrinter{w: w}
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
	return ew.err
}

// mdCell escapes the characters that would break a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", "\\|") }

// wrap breaks s into lines of at most width, indenting the following lines.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if line+1+len(word) > width {
				b.WriteString("\n" + indent)
				line = 0
			} else {
				b.WriteByte(' ')
				line++
			}
		}
		b.WriteString(word)
		line += len(word)
	}
	return b.String()
}

// errPrinter keeps the first write error.
type errPrinter struct {
	w   io.Writer
	err error
}

func (e *errPrinter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}
