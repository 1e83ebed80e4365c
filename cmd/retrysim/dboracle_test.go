package main

import (
	"bytes"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/demo"
	"github.com/retrysim/retrysim/simulator/oracle/dbtest"
)

// A SQLite-backed handler (the demo's queue modes over a file) gets the
// same verdict from its database as from its HTTP oracle, and again on a
// rerun against the same database, whose earlier rows the baseline takes
// off.
func TestDatabaseOracleGivesTheHTTPOraclesVerdict(t *testing.T) {
	t.Parallel()
	for _, mode := range []demo.Mode{demo.QueueUnguarded, demo.Queue} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "app.db")
			srv, err := startDemo(mode, "stripe", policies.GenerateSecret("stripe", 1), demo.WithDB(path))
			if err != nil {
				t.Fatal(err)
			}
			defer srv.close()
			base := strings.TrimSuffix(srv.URL, demo.WebhookPath+"stripe")
			common := []string{"run", "--provider", "stripe", "--url", srv.URL, "--events", "8", "--settle", "20s", "--fail-on", "duplicate-effects"}
			oracles := map[string][]string{
				"http":   {"--effects-url", base + demo.EffectsPath},
				"sqlite": {"--effects-url", "sqlite:" + path, "--effects-query", "SELECT event_id, count(*) FROM ledger GROUP BY event_id", "--pending-query", "SELECT count(*) FROM jobs"},
			}
			for i := range 2 { // a run, and a rerun against the same database
				codes, verdicts := map[string]int{}, map[string]string{}
				for _, name := range []string{"http", "sqlite"} {
					code, v := runJSON(t, append(append([]string{}, common...), append(oracles[name], "--run-id", "same"+string(rune('a'+i)))...)...)
					codes[name], verdicts[name] = code, v.Verdict
				}
				if verdicts["http"] != verdicts["sqlite"] || codes["http"] != codes["sqlite"] {
					t.Errorf("run %d: HTTP oracle %s (exit %d), database %s (exit %d): want the same", i+1, verdicts["http"], codes["http"], verdicts["sqlite"], codes["sqlite"])
				}
				want := map[demo.Mode]string{demo.Queue: "idempotent", demo.QueueUnguarded: "not_idempotent"}[mode]
				if verdicts["sqlite"] != want {
					t.Errorf("run %d: %s, want %s", i+1, verdicts["sqlite"], want)
				}
			}
		})
	}
}

// postgres is the PostgreSQL server this test binary's tests share,
// started on first use and stopped when they end (see TestMain): starting
// one takes seconds. Each test keeps to tables of its own.
var postgres struct {
	once sync.Once
	srv  *dbtest.Server
	err  error
}

// sharedPostgres returns the shared server, starting it on the first
// call; it skips t when PostgreSQL is not installed, unless CI requires it.
func sharedPostgres(t *testing.T) *dbtest.Server {
	t.Helper()
	postgres.once.Do(func() { postgres.srv, postgres.err = dbtest.StartPostgres() })
	if errors.Is(postgres.err, dbtest.ErrMissing) && !dbtest.Required() {
		t.Skip(postgres.err)
	}
	if postgres.err != nil {
		t.Fatal(postgres.err)
	}
	return postgres.srv
}

// stopPostgres stops the shared server, if it was started.
func stopPostgres() {
	if postgres.srv != nil {
		postgres.srv.Stop()
	}
}

// A database oracle's password appears in no output, in any format, nor
// in the one line that says the login was refused.
func TestDatabasePasswordInNoOutput(t *testing.T) {
	t.Parallel()
	pg := sharedPostgres(t)
	admin, err := sql.Open("pgx", pg.AdminURL)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	// A table of its own: the server is shared with the other tests.
	for _, q := range []string{"CREATE TABLE password_ledger (event_id text NOT NULL)", "GRANT SELECT ON password_ledger TO reader"} {
		if _, err := admin.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	// The demo handler's effects are not in this database: the oracle
	// knows none of them (UNKNOWN), so each run waits out --settle 200ms.
	oracleArgs := []string{"--effects-url", pg.ReaderURL, "--effects-query", "SELECT event_id, count(*) FROM password_ledger GROUP BY event_id"}
	for _, format := range []string{"text", "json", "markdown", "csv", "junit"} {
		args := append([]string{"run", "--provider", "stripe", "--events", "3", "--format", format, "--fail-on", "duplicate-effects", "--settle", "200ms",
			"--results", filepath.Join(dir, format+".jsonl"), "--out", filepath.Join(dir, format+".html"), "--out", filepath.Join(dir, format+".md")}, oracleArgs...)
		_, out, errs := retrysim(t, nil, args...)
		if strings.Contains(out+errs, dbtest.ReaderPassword) {
			t.Errorf("--format %s: the password is in the output:\n%s\n%s", format, out, errs)
		}
		if !strings.Contains(out+errs, "IDEMPOTENT") && !strings.Contains(out+errs, "idempotent") && !strings.Contains(out+errs, "UNKNOWN") && !strings.Contains(out+errs, "unknown") {
			t.Errorf("--format %s: no verdict in the output:\n%s\n%s", format, out, errs)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) < 10 {
		t.Errorf("%d output files, want the results and reports of every run: %v", len(files), files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if bytes.Contains(b, []byte(dbtest.ReaderPassword)) {
			t.Errorf("%s holds the password", filepath.Base(f))
		}
	}
	// The password as a query parameter rather than in the userinfo: only
	// the parsed source knows it is one.
	inQuery := strings.Replace(pg.ReaderURL, ":"+dbtest.ReaderPassword+"@", "@", 1) + "&password=" + dbtest.ReaderPassword
	code, out, errs := retrysim(t, nil, append([]string{"run", "--provider", "stripe", "--events", "2", "--settle", "200ms", "--effects-url", inQuery}, oracleArgs[2:]...)...)
	if code == 2 || strings.Contains(out+errs, dbtest.ReaderPassword) || !strings.Contains(out+errs, "UNKNOWN") {
		t.Errorf("the password as ?password=: exit %d, want a verdict and no password in the output:\n%s\n%s", code, out, errs)
	}
	for _, url := range []string{pg.ReaderURL, inQuery} {
		wrongDB := strings.Replace(url, "/app?", "/nope?", 1)
		code, out, errs = retrysim(t, nil, append([]string{"run", "--provider", "stripe", "--events", "1", "--effects-url", wrongDB}, oracleArgs[2:]...)...)
		if code != 2 || strings.Contains(out+errs, dbtest.ReaderPassword) || !strings.Contains(errs, "--effects-url") {
			t.Errorf("a database that is not there: exit %d, want 2 with one line naming --effects-url and no password:\n%s", code, errs)
		}
	}
}

// A database --effects-url that cannot be parsed is refused in one line,
// as a database URL: not a second time as an HTTP URL, which would quote
// it whole, a short password included.
func TestBadDatabaseURLIsOneDatabaseProblem(t *testing.T) {
	t.Parallel()
	for _, url := range []string{
		"postgres://app:pw12@127.0.0.1:99999/app",
		"postgres://app:pw12@127.0.0.1:5432/app?sslmode=bogus",
		"mysql://app:pw12@127.0.0.1:99999/app",
		"mysql://app:pw12@[::1/app",
	} {
		code, out, errs := retrysim(t, nil, "run", "--provider", "stripe", "--events", "1", "--effects-url", url,
			"--effects-query", "SELECT event_id, count(*) FROM ledger GROUP BY event_id")
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != 2 || out != "" || len(lines) != 1 || !strings.HasPrefix(lines[0], "retrysim: --effects-url: database URL: ") ||
			strings.Contains(errs, "http://") || strings.Contains(errs, "pw12") {
			t.Errorf("--effects-url %s: exit %d, want 2 with one line naming the database URL's problem, no http:// and no password:\n%s%s", url, code, out, errs)
		}
	}
}

// replay reads an HTTP oracle only: a database --effects-url is refused
// saying so, not as a URL that is not http://, quoted whole.
func TestReplayRefusesADatabaseOracle(t *testing.T) {
	t.Parallel()
	dir := replayCaptureDir(t)
	code, out, errs := runCLI(t, dir, "replay", "--request", "stripe.http", "--url", "http://127.0.0.1:9/webhooks/stripe",
		"--effects-url", "postgres://app:pw12@127.0.0.1:5432/app")
	want := "retrysim: --effects-url: replay reads its effects from a URL answering {\"<dedup id>\": <times processed>}, not from a database; run and proxy read one (postgres://, mysql://, sqlite:PATH) with --effects-query\n"
	if code != exitBadInput || out != "" || errs != want {
		t.Errorf("exit %d, stderr:\n%s\nwant 2 and\n%s", code, errs, want)
	}
}
