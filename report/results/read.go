package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
)

// Paths expands the names of saved streams: a glob names every file it
// matches, in order (a file whose name only looks like a glob is itself);
// "-" (stdin) is one stream and stands alone.
func Paths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		if a == "-" {
			if len(args) > 1 {
				return nil, errors.New("report: - (stdin) is one stream: it cannot be merged with others")
			}
			return args, nil
		}
		if _, err := os.Stat(a); err == nil || !strings.ContainsAny(a, "*?[") {
			out = append(out, a)
			continue
		}
		m, err := filepath.Glob(a)
		if err != nil {
			return nil, fmt.Errorf("results %s: %w", a, err)
		}
		if len(m) == 0 {
			return nil, fmt.Errorf("results %s: no file matches", a)
		}
		out = append(out, m...)
	}
	return out, nil
}

// OpenAll opens the saved streams at paths, "-" being stdin. It returns
// those that opened, an error for each that did not, and a function that
// closes the files.
func OpenAll(paths []string, stdin io.Reader) ([]report.ShardStream, func(), []error) {
	var streams []report.ShardStream
	var files []*os.File
	var errs []error
	for _, p := range paths {
		if p == "-" {
			streams = append(streams, report.ShardStream{Name: p, R: stdin})
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("results: %w", err))
			continue
		}
		files = append(files, f)
		streams = append(streams, report.ShardStream{Name: p, R: f})
	}
	return streams, func() {
		for _, f := range files {
			f.Close()
		}
	}, errs
}

// Read passes the records of streams to add: one stream as it is (compressed
// or not, of any number of runs), several merged as every shard of one
// run (report.MergeShards).
func Read(streams []report.ShardStream, add simulator.Sink) error {
	if len(streams) == 1 {
		return report.ReadJSONL(streams[0].R, add)
	}
	return report.MergeShards(streams, add)
}
