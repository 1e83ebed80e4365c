package main

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/retrysim/retrysim/policies"
)

// A Postgres-backed handler (examples/handlers/postgres: ack first, one
// worker, the guard in the worker; --guard=false credits every job) gets
// the same verdict and exit code from its database, read as the role
// "reader", as from an HTTP oracle serving the same tables, and again on
// reruns against the same database; the server's statement log shows
// the reader, who may write, sent nothing that writes.
func TestPostgresOracleGivesTheHTTPOraclesVerdict(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/handlers/postgres")
	}
	t.Parallel()
	// Build the handler while the server starts.
	bin := filepath.Join(t.TempDir(), "pghandler")
	built := make(chan struct{})
	var out []byte
	var buildErr error
	go func() {
		defer close(built)
		out, buildErr = exec.Command("go", "build", "-o", bin, "../../examples/handlers/postgres").CombinedOutput()
	}()
	defer func() { <-built }() // before the temporary directory goes, on a skip too
	pg := sharedPostgres(t)
	if <-built; buildErr != nil {
		t.Fatalf("go build examples/handlers/postgres: %v\n%s", buildErr, out)
	}
	admin, err := sql.Open("pgx", pg.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	effects := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served, err := tableEffects(admin)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		json.NewEncoder(w).Encode(served)
	}))
	defer effects.Close()
	from := fileSize(t, pg.Log)
	for _, guard := range []bool{false, true} {
		t.Run("guard="+strconv.FormatBool(guard), func(t *testing.T) {
			if _, err := admin.Exec("DROP TABLE IF EXISTS jobs, worked, ledger"); err != nil {
				t.Fatal(err)
			}
			url := startPostgresHandler(t, bin, pg.AdminURL, guard)
			// The reader may write: only its read-only transaction keeps it from it.
			if _, err := admin.Exec("GRANT ALL ON jobs, worked, ledger TO reader"); err != nil {
				t.Fatal(err)
			}
			common := []string{"run", "--provider", "stripe", "--url", url, "--events", "8", "--settle", "20s", "--fail-on", "duplicate-effects"}
			oracles := map[string][]string{
				"http":     {"--effects-url", effects.URL},
				"postgres": {"--effects-url", pg.ReaderURL, "--effects-query", "SELECT event_id, count(*) FROM ledger GROUP BY event_id", "--pending-query", "SELECT count(*) FROM jobs"},
			}
			want, wantCode := "not_idempotent", 1
			if guard {
				want, wantCode = "idempotent", 0
			}
			for i := range 2 { // a run, and a rerun against the same database
				codes, verdicts := map[string]int{}, map[string]string{}
				for _, name := range []string{"http", "postgres"} {
					code, v := runJSON(t, append(append([]string{}, common...), append(oracles[name], "--run-id", "pg"+string(rune('a'+i)))...)...)
					codes[name], verdicts[name] = code, v.Verdict
				}
				if verdicts["http"] != verdicts["postgres"] || codes["http"] != codes["postgres"] {
					t.Errorf("run %d: HTTP oracle %s (exit %d), database %s (exit %d): want the same", i+1, verdicts["http"], codes["http"], verdicts["postgres"], codes["postgres"])
				}
				if verdicts["postgres"] != want || codes["postgres"] != wantCode {
					t.Errorf("run %d: %s (exit %d), want %s (exit %d)", i+1, verdicts["postgres"], codes["postgres"], want, wantCode)
				}
			}
		})
	}
	log, err := os.ReadFile(pg.Log)
	if err != nil {
		t.Fatal(err)
	}
	var sent []string
	for _, line := range strings.Split(string(log[from:]), "\n") {
		if strings.HasPrefix(line, "user=reader ") {
			sent = append(sent, line)
		}
	}
	all := strings.Join(sent, "\n")
	if w := regexp.MustCompile(`(?i)\b(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|TRUNCATE|GRANT|COPY|LOCK)\b`).FindString(all); w != "" {
		t.Errorf("the reader sent %s:\n%s", w, all)
	}
	if !regexp.MustCompile(`(?i)begin (isolation level repeatable read )?read only`).MatchString(all) || !strings.Contains(all, "FROM ledger") {
		t.Errorf("the server's log shows no read-only transaction counting the ledger as reader:\n%s", all)
	}
}

// tableEffects is what an HTTP oracle of the handler would serve: its
// ledger's counts and its queued jobs, read from the same tables.
func tableEffects(db *sql.DB) (map[string]any, error) {
	// One moment for both reads, as the database oracle reads them: a job
	// ending between two moments would be neither pending nor counted.
	tx, err := db.BeginTx(context.Background(), &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.Query("SELECT event_id, count(*) FROM ledger GROUP BY event_id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		counts[id] = n
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var pending int
	if err := tx.QueryRow("SELECT count(*) FROM jobs").Scan(&pending); err != nil {
		return nil, err
	}
	return map[string]any{"effects": counts, "pending": pending}, nil
}

// startPostgresHandler starts the example handler on a free loopback
// port, stopped when the test ends, and returns its webhook URL once its
// tables exist.
func startPostgresHandler(t *testing.T, bin, db string, guard bool) string {
	t.Helper()
	cmd := exec.Command(bin, "--db", db, "--addr", "127.0.0.1:0", "--guard="+strconv.FormatBool(guard),
		"--secret", policies.GenerateSecret("stripe", 1))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() {
		cmd.Wait()
		t.Fatalf("the handler printed no address:\n%s", stderr.String())
	}
	_, url, ok := strings.Cut(sc.Text(), " on ")
	if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("the handler's first line names no loopback URL: %q", sc.Text())
	}
	go func() { // keep its stdout drained
		for sc.Scan() {
		}
	}()
	return url
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
