package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// store is the demo handler's database: a real SQLite file with an account
// ledger (the side effect), the processed ids (idempotent and check-then-act
// modes) and the expiring dedup keys (ttl mode).
type store struct{ db *sql.DB }

const schema = `
CREATE TABLE IF NOT EXISTS ledger (
	id        INTEGER PRIMARY KEY,
	event_id  TEXT NOT NULL,
	amount    INTEGER NOT NULL,
	at        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_event ON ledger(event_id);
CREATE TABLE IF NOT EXISTS processed (
	event_id  TEXT PRIMARY KEY,
	at        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dedup_keys (
	event_id    TEXT PRIMARY KEY,
	expires_at  INTEGER NOT NULL -- Unix nanoseconds, virtual time
);`

func openStore(path string) (*store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)")
	if err != nil {
		return nil, err
	}
	// One connection: SQLite has one writer at a time anyway, and this keeps
	// "database is locked" out of the demo.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("demo store %s: %w", path, err)
	}
	return &store{db: db}, nil
}

// credit is the business write: it credits the account once more.
func credit(ctx context.Context, ex interface {
	ExecContext(context.Context, string, ...any) (sql.Result, error)
}, eventID string, amount int) error {
	_, err := ex.ExecContext(ctx, `INSERT INTO ledger(event_id, amount, at) VALUES (?, ?, ?)`, eventID, amount, time.Now().UTC().Format(time.RFC3339Nano))
	return err
}

// creditOnce records eventID and credits the account in one transaction: if
// the id is already there, nothing is written and dup is true.
func (s *store) creditOnce(ctx context.Context, eventID string, amount int) (dup bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, `INSERT INTO processed(event_id, at) VALUES (?, ?) ON CONFLICT(event_id) DO NOTHING`, eventID, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return true, nil
	}
	if err := credit(ctx, tx, eventID, amount); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// processedBefore reports whether eventID was recorded as processed.
func (s *store) processedBefore(ctx context.Context, eventID string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM processed WHERE event_id = ?`, eventID).Scan(&n)
	return n > 0, err
}

// markProcessed records eventID as processed, on its own.
func (s *store) markProcessed(ctx context.Context, eventID string) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO processed(event_id, at) VALUES (?, ?) ON CONFLICT(event_id) DO NOTHING`, eventID, time.Now().UTC().Format(time.RFC3339Nano))
	return err
}

// creditUnlessFresh credits the account unless eventID's dedup key is still
// fresh at now, and then stores the key to expire at now+ttl, in one
// transaction: the only way it lets a duplicate through is the key having
// expired. A key is fresh up to and including its expiry instant. As with
// SET NX EX, a duplicate does not extend the key.
func (s *store) creditUnlessFresh(ctx context.Context, eventID string, amount int, now time.Time, ttl time.Duration) (dup bool, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var expires int64
	switch err := tx.QueryRowContext(ctx, `SELECT expires_at FROM dedup_keys WHERE event_id = ?`, eventID).Scan(&expires); {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return false, err
	case now.UnixNano() <= expires:
		return true, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO dedup_keys(event_id, expires_at) VALUES (?, ?)
		ON CONFLICT(event_id) DO UPDATE SET expires_at = excluded.expires_at`, eventID, now.Add(ttl).UnixNano()); err != nil {
		return false, err
	}
	if err := credit(ctx, tx, eventID, amount); err != nil {
		return false, err
	}
	return false, tx.Commit()
}

// effects counts the ledger rows per event: how often each was processed.
func (s *store) effects(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT event_id, COUNT(*) FROM ledger GROUP BY event_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		out[id] = n
	}
	return out, rows.Err()
}

func (s *store) close() error { return s.db.Close() }
