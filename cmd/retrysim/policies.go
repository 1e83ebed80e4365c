package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/retrysim/retrysim/policies"
)

func newPoliciesCmd() *cobra.Command {
	var format, chart string
	cmd := &cobra.Command{
		Use:   "policies",
		Short: "List the providers' retry policies",
		Long: `Policies lists every built-in retry policy: attempts, the span of its schedule, the
timeout, when the provider disables the endpoint, and how long manual redelivery stays
possible. 'policies show NAME' prints one policy's worked schedule and its sources.

Examples:
  retrysim policies
  retrysim policies show stripe
  retrysim policies show shopify --format json
  retrysim policies --chart schedules.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if _, err := loadConfig(cmd); err != nil {
				return err
			}
			var all []policies.Policy
			for _, n := range policies.Builtin() {
				p, _ := policies.Lookup(n)
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
			case "text":
				return writePolicyTable(cmd.OutOrStdout(), all)
			}
			return badInput(fmt.Errorf("--format: %q is not a format (valid: text, json)", format))
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&chart, "chart", "", "also draw every policy's attempt times on one time axis to FILE (.png or .svg)")
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one policy's worked schedule, rules and sources",
		Long: `Show prints one policy: every attempt with its delay and elapsed time, the timeout,
the disable rule, the manual-redelivery window, and where each number comes from.

Examples:
  retrysim policies show stripe
  retrysim policies show github --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := policies.Lookup(args[0])
			if err != nil {
				return badInput(err)
			}
			switch format {
			case "json":
				return writeJSON(cmd.OutOrStdout(), toPolicyJSON(&p))
			case "text":
				return writePolicyText(cmd.OutOrStdout(), &p)
			}
			return badInput(fmt.Errorf("--format: %q is not a format (valid: text, json)", format))
		},
	}
	show.Flags().StringVar(&format, "format", "text", "output format: text or json")
	cmd.AddCommand(show)
	return cmd
}

// policyJSON is the JSON contract of `retrysim policies show NAME --format json`.
type policyJSON struct {
	Name                    string       `json:"name"`
	Provider                string       `json:"provider"`
	MaxAttempts             int          `json:"max_attempts"`
	DelaysSeconds           []float64    `json:"delays_seconds"`
	TimeoutSeconds          float64      `json:"timeout_seconds"`
	WindowSeconds           float64      `json:"window_seconds"`
	Disable                 *disableJSON `json:"disable"`
	ManualRedeliverySeconds float64      `json:"manual_redelivery_seconds"`
	Source                  string       `json:"source"`
	Notes                   string       `json:"notes"`
}

type disableJSON struct {
	ConsecutiveFailures int     `json:"consecutive_failures"`
	WithinSeconds       float64 `json:"within_seconds"`
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
	if p.Disable != nil {
		out.Disable = &disableJSON{ConsecutiveFailures: p.Disable.ConsecutiveFailures, WithinSeconds: p.Disable.Within.D().Seconds()}
	}
	return out
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func disableText(p *policies.Policy) string {
	if p.Disable == nil {
		return "-"
	}
	s := fmt.Sprintf("after %d consecutive failures", p.Disable.ConsecutiveFailures)
	if p.Disable.Within > 0 {
		s += " within " + p.Disable.Within.String()
	}
	return s
}

func orDash(d policies.Duration) string {
	if d == 0 {
		return "-"
	}
	return d.String()
}

func writePolicyTable(w io.Writer, all []policies.Policy) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tATTEMPTS\tSPAN\tTIMEOUT\tDISABLED\tMANUAL RESEND\tSUMMARY")
	for i := range all {
		p := &all[i]
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.MaxAttempts(), policies.FormatDuration(p.Window()),
			p.Timeout, disableText(p), orDash(p.ManualRedelivery), p.Summary)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n'retrysim policies show NAME' prints a policy's worked schedule and sources.")
	return err
}

func writePolicyText(w io.Writer, p *policies.Policy) error {
	ew := &errPrinter{w: w}
	ew.printf("%s — %s\n", p.Name, p.Summary)
	ew.printf("  wire format: %s · timeout %s", p.Provider, p.Timeout)
	if p.ConnectTimeout > 0 {
		ew.printf(" (connect %s)", p.ConnectTimeout)
	}
	if p.FollowRedirects > 0 {
		ew.printf(" · follows up to %d redirects", p.FollowRedirects)
	} else {
		ew.printf(" · redirects are failures")
	}
	ew.printf("\n  disabled: %s · manual redelivery: %s\n\n", disableText(p), orDash(p.ManualRedelivery))
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
	return ew.err
}

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
