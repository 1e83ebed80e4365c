// Command postgres is a Stripe webhook handler on PostgreSQL that answers
// first and works later, the design the providers recommend: the webhook
// verifies the signature, inserts a job and answers 200; one worker takes
// the jobs and credits a ledger, with the guard in the worker: the credit
// and the record that the event was worked share a transaction, under a
// unique key, so a duplicate job credits nothing.
//
// retrysim reads its side effects from the database itself (no oracle
// endpoint in the handler), counting ledger rows and the jobs still
// queued, in a read-only transaction:
//
//	go run ./examples/handlers/postgres --db 'postgres://app:PASSWORD@127.0.0.1:5432/app?sslmode=disable' \
//	    --secret whsec_0EO8boUNxrURhypJ2tt9STZ88ySLwsbo --addr 127.0.0.1:8080
//	retrysim run --provider stripe --url http://127.0.0.1:8080/webhooks/stripe \
//	    --effects-url 'postgres://app:PASSWORD@127.0.0.1:5432/app?sslmode=disable' \
//	    --effects-query 'SELECT event_id, count(*) FROM ledger GROUP BY event_id' \
//	    --pending-query 'SELECT count(*) FROM jobs' --fail-on duplicate-effects
//
// (whsec_0EO8… is the secret retrysim generates from --seed 1; a role
// with SELECT on ledger and jobs is all retrysim needs.) --guard=false
// takes the guard out, crediting every job, for retrysim to catch: the
// same command then says NOT IDEMPOTENT and exits 1. --addr 127.0.0.1:0
// picks a free port, printed on the first line.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/retrysim/retrysim/policies"
)

const schema = `
CREATE TABLE IF NOT EXISTS jobs   (id bigserial PRIMARY KEY, event_id text NOT NULL);
CREATE TABLE IF NOT EXISTS worked (event_id text PRIMARY KEY);
CREATE TABLE IF NOT EXISTS ledger (id bigserial PRIMARY KEY, event_id text NOT NULL, amount integer NOT NULL);
CREATE INDEX IF NOT EXISTS ledger_event ON ledger (event_id);`

func main() {
	db := flag.String("db", os.Getenv("DATABASE_URL"), "PostgreSQL URL")
	addr := flag.String("addr", "127.0.0.1:8080", "address to listen on")
	secret := flag.String("secret", os.Getenv("STRIPE_WEBHOOK_SECRET"), "Stripe signing secret (whsec_…)")
	guard := flag.Bool("guard", true, "credit each event once; false credits every job (for retrysim to catch)")
	flag.Parse()
	ctx := context.Background()
	pool, err := pgxpool.New(ctx, *db)
	if err != nil {
		log.Fatal(err)
	}
	defer pool.Close()
	if _, err := pool.Exec(ctx, schema); err != nil {
		log.Fatal(err)
	}
	wire, _ := policies.WireFor("stripe")
	kick := make(chan struct{}, 1)
	go work(ctx, pool, kick, *guard)
	http.HandleFunc("POST /webhooks/stripe", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		if err := wire.Verify(r.Header, body, "", *secret, time.Now()); err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		id, err := wire.DedupID(r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		// Answer first: the job is queued, the work is the worker's.
		if _, err := pool.Exec(r.Context(), `INSERT INTO jobs (event_id) VALUES ($1)`, id); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		select {
		case kick <- struct{}{}:
		default:
		}
	})
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("stripe webhooks on http://%s/webhooks/stripe\n", ln.Addr())
	log.Fatal(http.Serve(ln, nil))
}

// work takes jobs one at a time until the queue is empty, then waits for
// the next kick (or a second, for jobs an earlier process left).
func work(ctx context.Context, pool *pgxpool.Pool, kick <-chan struct{}, guard bool) {
	for {
		for {
			done, err := workOne(ctx, pool, guard)
			if err != nil {
				log.Print(err)
			}
			if !done {
				break
			}
		}
		select {
		case <-kick:
		case <-time.After(time.Second):
		}
	}
}

// workOne takes the oldest job and credits its event once: the guard is
// the unique key of worked, in the credit's transaction. It reports
// whether there was a job. Without the guard it credits every job.
func workOne(ctx context.Context, pool *pgxpool.Pool, guard bool) (bool, error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer tx.Rollback(ctx)
	var jobID int64
	var eventID string
	err = tx.QueryRow(ctx, `DELETE FROM jobs WHERE id = (SELECT id FROM jobs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING id, event_id`).Scan(&jobID, &eventID)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	first := true
	if guard {
		tag, err := tx.Exec(ctx, `INSERT INTO worked (event_id) VALUES ($1) ON CONFLICT DO NOTHING`, eventID)
		if err != nil {
			return false, err
		}
		first = tag.RowsAffected() == 1
	}
	if first { // the first job of this event (or any, unguarded): credit it
		if _, err := tx.Exec(ctx, `INSERT INTO ledger (event_id, amount) VALUES ($1, 1000)`, eventID); err != nil {
			return false, err
		}
	}
	return true, tx.Commit(ctx)
}
