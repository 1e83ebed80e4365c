package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/retrysim/retrysim/scenarios"
)

// WriteScenarios writes the scenarios command's list: each scenario of
// list (scenarios.List) with where it comes from, built-in or file (a
// config file's own, whose text reaches the terminal escaped), then the
// fault types, and how to print one scenario.
func WriteScenarios(w io.Writer, list []scenarios.Listed, file string) error {
	return buffered(w, func(w io.Writer) error { return writeScenarios(w, list, file) })
}

func writeScenarios(w io.Writer, list []scenarios.Listed, file string) error {
	rows := [][]string{{"NAME", "FROM", "DESCRIPTION"}}
	for _, l := range list {
		if !l.Own {
			rows = append(rows, []string{l.Name, "built-in", l.Description})
			continue
		}
		rows = append(rows, []string{EscapeText(l.Name), EscapeText(file), EscapeText(l.Description)})
	}
	if err := WriteTable(w, rows, 0); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	if err := WriteTable(w, [][]string{{"fault types:", strings.Join(scenarios.Types(), ", ")}}, 0); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "'retrysim scenarios show NAME' prints a scenario's YAML.\n")
	return err
}
