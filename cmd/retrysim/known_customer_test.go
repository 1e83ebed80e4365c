package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/retrysim/retrysim/policies"
)

// A handler as teams write them, not for retrysim: it checks the Stripe
// signature, looks the invoice's customer up in its own SQLite table and
// answers 404 for a customer it does not know; for one it knows, it
// credits the customer and writes a ledger row. The naive one credits on
// every delivery; the guarded one records the event id in the same
// transaction, under a unique key, and credits only when the id is new.
// GET /effects counts the ledger rows by event id.
type customerHandler struct {
	db      *sql.DB
	secret  string
	guarded bool
}

const knownCustomer = "cus_Known0001"

func newCustomerHandler(t *testing.T, guarded bool, secret string) *httptest.Server {
	t.Helper()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "shop.db")+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE TABLE customers (id TEXT PRIMARY KEY, balance INTEGER NOT NULL)`,
		`CREATE TABLE ledger (event_id TEXT NOT NULL, customer TEXT NOT NULL, amount INTEGER NOT NULL)`,
		`CREATE TABLE processed (event_id TEXT PRIMARY KEY)`,
		`INSERT INTO customers VALUES ('` + knownCustomer + `', 0)`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	h := &customerHandler{db: db, secret: secret, guarded: guarded}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /webhooks/stripe", h.webhook)
	mux.HandleFunc("GET /effects", h.effects)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { srv.Close(); db.Close() })
	return srv
}

func (h *customerHandler) webhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	wire, _ := policies.WireFor("stripe")
	if err := wire.Verify(r.Header, body, "", h.secret, time.Now()); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var ev struct {
		ID   string `json:"id"`
		Data struct {
			Object struct {
				Customer   string `json:"customer"`
				AmountPaid int    `json:"amount_paid"`
			} `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	tx, err := h.db.Begin()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer tx.Rollback()
	var balance int
	if err := tx.QueryRow(`SELECT balance FROM customers WHERE id = ?`, ev.Data.Object.Customer).Scan(&balance); err != nil {
		http.Error(w, "no such customer", http.StatusNotFound)
		return
	}
	if h.guarded {
		res, err := tx.Exec(`INSERT INTO processed VALUES (?) ON CONFLICT DO NOTHING`, ev.ID)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		if n, _ := res.RowsAffected(); n == 0 {
			w.WriteHeader(http.StatusOK) // seen before
			return
		}
	}
	if _, err := tx.Exec(`UPDATE customers SET balance = balance + ? WHERE id = ?`, ev.Data.Object.AmountPaid, ev.Data.Object.Customer); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if _, err := tx.Exec(`INSERT INTO ledger VALUES (?, ?, ?)`, ev.ID, ev.Data.Object.Customer, ev.Data.Object.AmountPaid); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := tx.Commit(); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(http.StatusOK)
}

func (h *customerHandler) effects(w http.ResponseWriter, _ *http.Request) {
	rows, err := h.db.Query(`SELECT event_id, count(*) FROM ledger GROUP BY event_id`)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		out[id] = n
	}
	json.NewEncoder(w).Encode(out)
}

// stripePayload is an invoice.paid event as `stripe events retrieve`
// prints it, about the customer the handler knows.
const stripePayload = `{
  "id": "evt_1QxYzAbCdEfGhIjKlMnOpQrS",
  "object": "event",
  "api_version": "2026-03-25.dahlia",
  "created": 1733011200,
  "data": {
    "object": {
      "id": "in_1QxYz9AbCdEfGhIj",
      "object": "invoice",
      "amount_paid": 2500,
      "currency": "usd",
      "customer": "` + knownCustomer + `"
    }
  },
  "livemode": false,
  "pending_webhooks": 1,
  "request": {"id": null, "idempotency_key": null},
  "type": "invoice.paid"
}
`

// A handler that refuses deliveries about customers it does not know
// tests nothing with retrysim's made-up customers; with --payload (or
// --set) naming a customer it knows it processes every event, and the
// verdict is right both ways: naive NOT IDEMPOTENT, guarded IDEMPOTENT.
func TestPayloadNamingAKnownCustomer(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "invoice_paid.json")
	if err := os.WriteFile(file, []byte(stripePayload), 0o644); err != nil {
		t.Fatal(err)
	}
	const secret = "whsec_known_customer_test_secret"
	for _, tc := range []struct {
		name    string
		guarded bool
		with    []string
		verdict string
		exit    int
	}{
		// The made-up customers: every delivery refused, nothing judged,
		// and the gate fails rather than pass on nothing.
		{"synthetic/naive", false, nil, "unknown", exitGate},
		{"payload/naive", false, []string{"--payload", file}, "not_idempotent", exitGate},
		{"payload/guarded", true, []string{"--payload", file}, "idempotent", exitOK},
		{"set/naive", false, []string{"--set", "data.object.customer=" + knownCustomer}, "not_idempotent", exitGate},
		{"set/guarded", true, []string{"--set", "data.object.customer=" + knownCustomer}, "idempotent", exitOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := newCustomerHandler(t, tc.guarded, secret)
			args := append([]string{"run", "--provider", "stripe", "--scenario", "flaky-network", "--events", "12",
				"--url", srv.URL + "/webhooks/stripe", "--secret", "stripe=" + secret,
				"--effects-url", srv.URL + "/effects", "--settle", "1s", "--fail-on", "duplicate-effects"}, tc.with...)
			code, v := runJSON(t, args...)
			if v.Verdict != tc.verdict {
				t.Fatalf("verdict %s (%s), want %s", v.Verdict, v.Detail, tc.verdict)
			}
			if code != tc.exit {
				t.Errorf("exit %d with --fail-on duplicate-effects, want %d", code, tc.exit)
			}
			// The handler's own ledger says what it did.
			resp, err := http.Get(srv.URL + "/effects")
			if err != nil {
				t.Fatal(err)
			}
			var fx map[string]int
			json.NewDecoder(resp.Body).Decode(&fx)
			resp.Body.Close()
			credited := 0
			for _, n := range fx {
				credited += n
			}
			switch {
			case tc.with == nil && credited != 0:
				t.Errorf("made-up customers: the handler credited %d times, want none (it knows no such customer)", credited)
			case tc.with != nil && len(fx) != 12:
				t.Errorf("the handler processed %d of 12 events, want every one: %v", len(fx), fx)
			}
		})
	}
}
