package main

import (
	"runtime/debug"
	"strings"
)

// version says which retrysim this is, from the build information Go
// records in the binary: the module version ("(devel)" for a build from a
// work tree), the VCS revision it was built from, and whether the tree had
// uncommitted changes.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (no build information in the binary)"
	}
	return versionOf(info)
}

// versionOf is version for the given build information.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, at string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	parts := []string{v}
	if rev != "" {
		r := "revision " + rev
		if at != "" {
			r += " of " + at
		}
		if dirty {
			r += ", with uncommitted changes (dirty)"
		}
		parts = append(parts, r)
	} else {
		parts = append(parts, "no VCS revision recorded (go build records it in a git checkout, unless -buildvcs=false)")
	}
	if info.GoVersion != "" {
		parts = append(parts, "built with "+info.GoVersion)
	}
	return strings.Join(parts, " · ")
}
