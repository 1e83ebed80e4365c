package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/demo"
)

// memHandlerMain is a tiny webhook handler for the scripts that dedups in
// process memory only: the ids it has processed live in a map, which a
// restart empties, while its side effect (one line per processing in the
// -ledger file) survives. It serves POST /webhooks/<provider> and GET
// /_retrysim/effects like the demo handler; it does not check signatures.
func memHandlerMain() {
	fs := flag.NewFlagSet("memhandler", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	ledger := fs.String("ledger", "ledger.txt", "file the side effects are appended to")
	fs.Parse(os.Args[1:])
	var mu sync.Mutex
	seen := map[string]bool{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+demo.WebhookPath+"{provider}", func(w http.ResponseWriter, r *http.Request) {
		wire, ok := policies.WireFor(r.PathValue("provider"))
		body, err := io.ReadAll(r.Body)
		if !ok || err != nil {
			http.Error(w, "unknown provider or unreadable body", http.StatusBadRequest)
			return
		}
		id, err := wire.DedupID(r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if seen[id] {
			fmt.Fprintln(w, "duplicate ignored")
			return
		}
		f, err := os.OpenFile(*ledger, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, err = fmt.Fprintln(f, id)
			err = errorsJoin(err, f.Close())
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		seen[id] = true
		fmt.Fprintln(w, "processed")
	})
	mux.HandleFunc("GET "+demo.EffectsPath, func(w http.ResponseWriter, _ *http.Request) {
		counts := map[string]int{}
		if f, err := os.Open(*ledger); err == nil {
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if id := strings.TrimSpace(sc.Text()); id != "" {
					counts[id]++
				}
			}
			f.Close()
		}
		json.NewEncoder(w).Encode(counts)
	})
	if err := http.ListenAndServe(*addr, mux); err != nil {
		fmt.Fprintln(os.Stderr, "memhandler:", err)
		os.Exit(1)
	}
}

func errorsJoin(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
