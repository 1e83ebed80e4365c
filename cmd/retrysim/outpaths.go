package main

import "github.com/retrysim/retrysim/report/outfile"

// outPaths names each file of a repeated --out, for outfile.CheckDistinct.
func outPaths(files []string) []outfile.Named {
	out := make([]outfile.Named, len(files))
	for i, f := range files {
		out[i] = outfile.Named{Flag: "--out", Path: f}
	}
	return out
}
