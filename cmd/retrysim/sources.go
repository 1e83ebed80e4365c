package main

import (
	"strings"
)

// flagSources names, for each flag whose value came from the environment
// or the config file rather than the command line, where it came from
// (RETRYSIM_EVENTS, retrysim.yaml:2: events), so that an error about the
// value points there.
var flagSources = map[string]string{}

// attributeSources rewrites an error message's lines that begin by naming
// a flag ("--events: 0 is out of range") to name where the value came
// from instead, when that was not the command line
// ("RETRYSIM_EVENTS (--events): 0 is out of range").
func attributeSources(msg string) string {
	if len(flagSources) == 0 {
		return msg
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "--")
		if !ok {
			continue
		}
		end := strings.IndexAny(rest, ": ")
		if end < 0 {
			end = len(rest)
		}
		if src, ok := flagSources[rest[:end]]; ok {
			lines[i] = src + " (--" + rest[:end] + ")" + rest[end:]
		}
	}
	return strings.Join(lines, "\n")
}
