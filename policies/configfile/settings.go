package configfile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/retrysim/retrysim/policies/boundedfile"
)

// Name is the config file looked for in the working directory.
const Name = "retrysim.yaml"

// MaxSize caps the config file: it is a few kilobytes in use, so a larger
// one (or /dev/zero) is a mistake.
const MaxSize = 4 << 20

// ReadFile reads the config file at path whole, refusing one larger than
// MaxSize (boundedfile.Read).
func ReadFile(path string) ([]byte, error) {
	return boundedfile.Read(path, nil, MaxSize, "a config file")
}

// EnvName is the environment variable that sets config key name:
// RETRYSIM_ and the key in upper case, dashes as underscores
// (RETRYSIM_DEMO_TTL).
func EnvName(name string) string {
	return "RETRYSIM_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
}

// SecretEnv is the environment variable that holds provider's secret:
// RETRYSIM_SECRET_STRIPE, RETRYSIM_SECRET_STANDARD_WEBHOOKS.
func SecretEnv(provider string) string {
	return "RETRYSIM_SECRET_" + strings.ToUpper(strings.NewReplacer("-", "_").Replace(provider))
}

// Key is the config key (and RETRYSIM_ variable) of command's flag: its
// name, but for demo's --ttl, which is how long its ttl handler keeps a
// key, as run's --demo-ttl is, and nothing like run's --ttl, the TTL
// choices a report compares. The two share "demo-ttl".
func Key(command, flag string) string {
	if command == "demo" && flag == "ttl" {
		return "demo-ttl"
	}
	return flag
}

// Text renders a config or environment value as the command line would
// spell it; a list becomes its elements joined by commas.
func Text(raw any) string {
	if list, ok := raw.([]any); ok {
		parts := make([]string, len(list))
		for i, e := range list {
			parts[i] = Text(e)
		}
		return strings.Join(parts, ",")
	}
	if f, ok := raw.(float64); ok {
		return strconv.FormatFloat(f, 'f', -1, 64) // 1e6 in YAML is 1000000
	}
	return fmt.Sprint(raw)
}

// Source names where key's value came from, for an error: the environment
// variable when getenv finds it set (it beats the file), else the config
// file at path and the key's line (lines, from File.Lines).
func Source(key, path string, lines map[string]int, getenv func(string) string) string {
	env := EnvName(key)
	if getenv(env) != "" {
		return env
	}
	if line, ok := lines[key]; ok {
		return fmt.Sprintf("%s:%d: %s", path, line, key)
	}
	return fmt.Sprintf("%s: %s", path, key)
}

// WritesPath reports whether command's flag chooses a path retrysim
// writes to: such a value is taken from a config file only when the file
// was named with --config.
func WritesPath(command, flag string) bool {
	switch flag {
	case "results", "out", "captures", "db":
		return true
	case "chart":
		return command == "policies" // run's --chart names a kind of chart
	}
	return false
}

// Trust says whether a value for a setting, found in the environment or
// in the config file, may be taken.
type Trust int

const (
	// Taken: the value may be taken.
	Taken Trust = iota
	// RunsCommand: the value would run a command (exec) and comes from a
	// config file found in the working directory, or from the
	// environment: it is refused, so that running retrysim in a directory
	// never runs a command it names.
	RunsCommand
	// WritesHere: the value chooses a path retrysim writes to (WritesPath)
	// and comes from a config file found in the working directory: it is
	// left out, so that running retrysim in a directory never writes
	// where a file there says.
	WritesHere
	// SendsAway: the value turns the loopback guard off (allow-remote)
	// and comes from a config file found in the working directory: it is
	// left out, so that running retrysim in a directory never sends
	// signed requests to another machine a file there names (nor has the
	// demo handler listen for them).
	SendsAway
)

// TrustOf says whether a value for command's flag, found in the
// environment or the config file, may be taken: explicit says the file
// was named with --config, and getenv reads the environment.
func TrustOf(command, flag string, explicit bool, getenv func(string) string) Trust {
	if flag == "exec" && (!explicit || getenv("RETRYSIM_EXEC") != "") {
		return RunsCommand
	}
	fromFile := !explicit && getenv(EnvName(Key(command, flag))) == ""
	if fromFile && WritesPath(command, flag) {
		return WritesHere
	}
	if fromFile && flag == "allow-remote" {
		return SendsAway
	}
	return Taken
}
