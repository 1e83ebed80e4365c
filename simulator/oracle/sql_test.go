package oracle_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/retrysim/retrysim/simulator/oracle"
	"github.com/retrysim/retrysim/simulator/oracle/dbtest"
)

// The servers of this test binary: started once in TestMain, nil (and why
// in dbMissing) when not installed outside CI.
var (
	pgServer, myServer *dbtest.Server
	dbMissing          error
)

func TestMain(m *testing.M) {
	// Both at once: each spends most of its start waiting on its own
	// processes (initdb, the server's recovery, the first connection).
	var pgErr, myErr error
	var wg sync.WaitGroup
	wg.Go(func() { pgServer, pgErr = dbtest.StartPostgres() })
	wg.Go(func() { myServer, myErr = dbtest.StartMariaDB() })
	wg.Wait()
	if err := errors.Join(pgErr, myErr); err != nil {
		stop := func() {
			for _, s := range []*dbtest.Server{pgServer, myServer} {
				if s != nil {
					s.Stop()
				}
			}
			pgServer, myServer = nil, nil
		}
		if dbtest.Required() || !missing(pgErr) || !missing(myErr) {
			fmt.Fprintln(os.Stderr, "starting the test databases:", err)
			stop()
			os.Exit(1)
		}
		stop()
		dbMissing = err
	}
	code := m.Run()
	if pgServer != nil {
		pgServer.Stop()
	}
	if myServer != nil {
		myServer.Stop()
	}
	os.Exit(code)
}

// missing says err is nil or says a server is not installed.
func missing(err error) bool { return err == nil || errors.Is(err, dbtest.ErrMissing) }

// database is one of the three kinds, with a ledger and a job table.
type database struct {
	name, readerURL, log string
	admin                *sql.DB
}

const effectsQuery = "SELECT event_id, count(*) FROM ledger GROUP BY event_id"

func databases(t testing.TB) []database {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "app.db")
	lite, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lite.Close() })
	dbs := []database{{name: "sqlite", readerURL: "sqlite:" + path, admin: lite}}
	if dbMissing != nil {
		t.Logf("PostgreSQL and MariaDB skipped: %v", dbMissing)
	} else {
		for _, s := range []struct {
			name, driver string
			srv          *dbtest.Server
		}{{"postgres", "pgx", pgServer}, {"mariadb", "mysql", myServer}} {
			dsn := s.srv.AdminURL
			if s.driver == "mysql" {
				src, err := oracle.ParseSource(dsn)
				if err != nil {
					t.Fatal(err)
				}
				dsn = fmt.Sprintf("app:app-pw@tcp(%s:%s)/app", src.Host, src.Port)
			}
			db, err := sql.Open(s.driver, dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			dbs = append(dbs, database{name: s.name, readerURL: s.srv.ReaderURL, log: s.srv.Log, admin: db})
		}
	}
	for _, d := range dbs {
		for _, q := range []string{
			"DROP TABLE IF EXISTS ledger", "DROP TABLE IF EXISTS jobs",
			"CREATE TABLE ledger (event_id VARCHAR(200) NOT NULL, amount INTEGER NOT NULL)",
			"CREATE TABLE jobs (event_id VARCHAR(200) NOT NULL)",
			// As a handler's ledger has: its effects are looked up by id.
			"CREATE INDEX ledger_event ON ledger (event_id)",
		} {
			if _, err := d.admin.Exec(q); err != nil {
				t.Fatalf("%s: %s: %v", d.name, q, err)
			}
		}
		if d.name == "postgres" { // the reader may write: only its transaction keeps it from it
			d.exec(t, "GRANT ALL ON ledger, jobs TO reader")
		}
	}
	return dbs
}

func (d database) exec(t testing.TB, q string) {
	t.Helper()
	if _, err := d.admin.Exec(q); err != nil {
		t.Fatalf("%s: %s: %v", d.name, q, err)
	}
}

func (d database) oracle(t testing.TB, effects, pending string) *oracle.SQL {
	t.Helper()
	src, err := oracle.ParseSource(d.readerURL)
	if err != nil {
		t.Fatal(err)
	}
	o, err := oracle.OpenSQL(src, oracle.SQLOptions{EffectsQuery: effects, PendingQuery: pending})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

// logSize is how much of a server's statement log is written: what a
// client sends after it is in the rest.
func logSize(t testing.TB, d database) int64 {
	if d.log == "" {
		return 0
	}
	fi, err := os.Stat(d.log)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

func logSince(t testing.TB, d database, from int64) string {
	b, err := os.ReadFile(d.log)
	if err != nil {
		t.Fatal(err)
	}
	return string(b[from:])
}

var writes = regexp.MustCompile(`(?i)\b(INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|TRUNCATE|GRANT)\b`)

// The oracle reads a database's counts and pending work in a read-only
// transaction: the server's own statement log shows the reader began one
// and sent nothing that writes, though the reader may write.
func TestSQLOracleReadsInAReadOnlyTransaction(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			d.exec(t, "INSERT INTO ledger VALUES ('evt_a', 10), ('evt_a', 10), ('evt_b', 5)")
			d.exec(t, "INSERT INTO jobs VALUES ('evt_c'), ('evt_d')")
			from := logSize(t, d)
			r, err := d.oracle(t, effectsQuery, "SELECT count(*) FROM jobs").Read(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Effects) != 2 || r.Effects["evt_a"] != 2 || r.Effects["evt_b"] != 1 || !r.HasPending || r.Pending != 2 {
				t.Errorf("read %+v: want evt_a ×2, evt_b ×1, 2 pending", r)
			}
			if d.log == "" {
				return // SQLite: opened mode=ro, query_only (below)
			}
			sent := logSince(t, d, from)
			if w := writes.FindString(sent); w != "" {
				t.Errorf("the oracle sent %s:\n%s", w, sent)
			}
			if !regexp.MustCompile(`(?i)(begin (isolation level repeatable read )?read only|start transaction read only)`).MatchString(sent) {
				t.Errorf("no read-only transaction in the server's log:\n%s", sent)
			}
			if !regexp.MustCompile(`(?i)repeatable read`).MatchString(sent) {
				t.Errorf("the transaction does not ask for one moment (REPEATABLE READ) in the server's log:\n%s", sent)
			}
		})
	}
}

// A query of the wrong shape, a table that is not there, a refused login
// and a server that is down each come back as a reason a caller can turn
// into one line naming what to fix.
func TestSQLOracleProblems(t *testing.T) {
	for _, d := range databases(t) {
		t.Run(d.name, func(t *testing.T) {
			d.exec(t, "INSERT INTO ledger VALUES ('evt_a', 10)")
			for _, tc := range []struct {
				name, effects, pending string
				reason                 oracle.Reason
			}{
				{"one column", "SELECT event_id FROM ledger", "", oracle.ReasonEffectsQuery},
				{"a text count", "SELECT event_id, event_id FROM ledger", "", oracle.ReasonEffectsQuery},
				{"no such table", "SELECT event_id, count(*) FROM ledgr GROUP BY event_id", "", oracle.ReasonNoTable},
				{"pending of two columns", effectsQuery, "SELECT 1, 2", oracle.ReasonPendingQuery},
			} {
				_, err := d.oracle(t, tc.effects, tc.pending).Read(context.Background())
				var oe *oracle.Error
				if !errors.As(err, &oe) || oe.Reason != tc.reason {
					t.Errorf("%s: %v, want reason %q", tc.name, err, tc.reason)
				}
			}
			if d.name == "sqlite" {
				return
			}
			wrong := strings.Replace(d.readerURL, dbtest.ReaderPassword, "wrong", 1)
			src, _ := oracle.ParseSource(wrong)
			o, _ := oracle.OpenSQL(src, oracle.SQLOptions{EffectsQuery: effectsQuery})
			defer o.Close()
			_, err := o.Read(context.Background())
			var oe *oracle.Error
			if !errors.As(err, &oe) || oe.Reason != oracle.ReasonLogin || strings.Contains(err.Error(), "wrong") {
				t.Errorf("a wrong password: %v, want reason login, and no password in the message", err)
			}
			// A user who logs in but may not use the database is denied,
			// not told its password is wrong nor that the server is down.
			denied := d.readerURL
			if d.name == "postgres" {
				d.exec(t, "REVOKE ALL ON DATABASE app FROM reader, PUBLIC")
				t.Cleanup(func() {
					d.exec(t, "GRANT ALL ON DATABASE app TO reader")
					d.exec(t, "GRANT CONNECT, TEMPORARY ON DATABASE app TO PUBLIC")
				})
			} else {
				denied = strings.Replace(denied, "/app", "/other", 1)
			}
			src, _ = oracle.ParseSource(denied)
			o2, _ := oracle.OpenSQL(src, oracle.SQLOptions{EffectsQuery: effectsQuery})
			defer o2.Close()
			if _, err := o2.Read(context.Background()); !errors.As(err, &oe) || oe.Reason != oracle.ReasonDenied {
				t.Errorf("a user without access to the database: %v, want reason denied", err)
			}
		})
	}
}

// BenchmarkSQLOracle100k reads an oracle of 100,000 ids (a ledger of
// 100,000 rows grouped by id) from each database.
func BenchmarkSQLOracle100k(b *testing.B) {
	for _, d := range databases(b) {
		b.Run(d.name, func(b *testing.B) {
			tx, err := d.admin.Begin()
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < 100_000; i += 1000 {
				var sb strings.Builder
				sb.WriteString("INSERT INTO ledger VALUES ")
				for j := i; j < i+1000; j++ {
					if j > i {
						sb.WriteByte(',')
					}
					fmt.Fprintf(&sb, "('evt_%024d', 1)", j)
				}
				if _, err := tx.Exec(sb.String()); err != nil {
					b.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				b.Fatal(err)
			}
			o := d.oracle(b, effectsQuery, "SELECT count(*) FROM jobs")
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r, err := o.Read(context.Background())
				if err != nil || len(r.Effects) != 100_000 {
					b.Fatalf("%d ids, %v", len(r.Effects), err)
				}
			}
		})
	}
}

// The effects and pending queries read one moment of the database: a job
// that moves to the ledger while the effects query runs is either still
// pending or among the effects, never neither, which would let a run
// settle on effects that miss it. PostgreSQL is where this needs asking
// for (its default gives each statement a moment of its own); MariaDB's
// default is one moment already, and the oracle's asking for it is in the
// statement log (TestSQLOracleReadsInAReadOnlyTransaction); a SQLite read
// transaction is one moment.
func TestSQLOracleReadsOneMoment(t *testing.T) {
	for _, d := range databases(t) {
		if d.name != "postgres" {
			continue
		}
		t.Run(d.name, func(t *testing.T) {
			d.exec(t, "INSERT INTO ledger VALUES ('evt_a', 10)")
			d.exec(t, "INSERT INTO jobs VALUES ('evt_c')")
			// The effects query waits on a lock the test holds: it has
			// begun, and read its moment, when the job ends.
			ctx := context.Background()
			holder, err := d.admin.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer holder.Close()
			if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_lock(4242)"); err != nil {
				t.Fatal(err)
			}
			o := d.oracle(t, "SELECT event_id, count(*) FROM ledger CROSS JOIN (SELECT pg_advisory_xact_lock_shared(4242)) l GROUP BY event_id", "SELECT count(*) FROM jobs")
			read := make(chan oracle.Reading, 1)
			failed := make(chan error, 1)
			go func() {
				r, err := o.Read(ctx)
				if err != nil {
					failed <- err
					return
				}
				read <- r
			}()
			for n := 0; n == 0; {
				if err := d.admin.QueryRow("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted").Scan(&n); err != nil {
					t.Fatal(err)
				}
				select {
				case err := <-failed:
					t.Fatal(err)
				case r := <-read:
					t.Fatalf("the read did not wait for the lock: %+v", r)
				default:
				}
			}
			// The job ends: it leaves the queue and credits the ledger in
			// one transaction.
			tx, err := d.admin.Begin()
			if err != nil {
				t.Fatal(err)
			}
			for _, q := range []string{"DELETE FROM jobs WHERE event_id = 'evt_c'", "INSERT INTO ledger VALUES ('evt_c', 7)"} {
				if _, err := tx.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if _, err := holder.ExecContext(ctx, "SELECT pg_advisory_unlock(4242)"); err != nil {
				t.Fatal(err)
			}
			var r oracle.Reading
			select {
			case r = <-read:
			case err := <-failed:
				t.Fatal(err)
			}
			if _, credited := r.Effects["evt_c"]; credited == (r.Pending == 1) {
				t.Errorf("read effects %v with %d pending: the job is counted %s", r.Effects, r.Pending, map[bool]string{true: "twice", false: "nowhere"}[credited])
			}
		})
	}
}
