package main

import (
	"fmt"
	"io"

	"github.com/retrysim/retrysim/report/advice"
)

// providerFromURL makes the provider the --url's path names the run's
// provider when --provider was not given (advice.ProviderFromURL), and
// says so on stderr.
func (f *runFlags) providerFromURL(st *settings, stderr io.Writer) {
	given := f.given != nil && f.given("provider")
	known := func(name string) bool {
		_, err := st.policy(name)
		return err == nil
	}
	var note string
	f.providers, note = advice.ProviderFromURL(f.urlFlagName(), f.url, f.providers, given, known)
	if note != "" {
		fmt.Fprintf(stderr, "retrysim: %s\n", note)
	}
}
