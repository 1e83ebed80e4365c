package main

import (
	"strings"
)

// attributeSources rewrites an error message's lines that begin by naming
// a flag ("--events: 0 is out of range") to name where the value came
// from instead, when that was not the command line
// ("RETRYSIM_EVENTS (--events): 0 is out of range"). sources are the
// settings' sources, by flag name.
func attributeSources(msg string, sources map[string]string) string {
	if len(sources) == 0 {
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
		if src, ok := sources[rest[:end]]; ok {
			lines[i] = src + " (--" + rest[:end] + ")" + rest[end:]
		}
	}
	return strings.Join(lines, "\n")
}
