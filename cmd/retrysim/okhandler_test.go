package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/retrysim/retrysim/simulator/demo"
)

// okHandlerMain is a webhook handler for the scripts that answers 200 to
// every delivery without looking at it, and serves a fixed effects oracle:
// -effects is the body GET /_retrysim/effects answers with -status. It
// stands for a handler whose oracle is a stub, or counts by some other key.
func okHandlerMain() {
	fs := flag.NewFlagSet("okhandler", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	effects := fs.String("effects", "{}", "the effects oracle's answer")
	status := fs.Int("status", http.StatusOK, "the effects oracle's status")
	fs.Parse(os.Args[1:])
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+demo.WebhookPath+"{provider}", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET "+demo.EffectsPath, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(*status)
		io.Copy(w, strings.NewReader(*effects))
	})
	if err := http.ListenAndServe(*addr, mux); err != nil {
		fmt.Fprintln(os.Stderr, "okhandler:", err)
		os.Exit(1)
	}
}
