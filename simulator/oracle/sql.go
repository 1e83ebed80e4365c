package oracle

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite" // the sqlite driver
)

// DialFunc is the shape of net.Dialer.DialContext.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// SQLOptions are an SQL oracle's queries and how it connects.
type SQLOptions struct {
	// EffectsQuery returns one row per dedup id: (id text, times
	// integer), e.g. SELECT event_id, count(*) FROM ledger GROUP BY
	// event_id. Required.
	EffectsQuery string
	// PendingQuery, when set, returns one integer: the jobs the handler
	// has queued and not yet done, e.g. SELECT count(*) FROM jobs.
	PendingQuery string
	// Dial makes the TCP connections (retrysim's keeps to loopback unless
	// remote targets are allowed); nil dials directly. A unix socket is
	// dialled directly whatever it is.
	Dial DialFunc
}

// SQL is the oracle of a handler's own database: each Read runs the
// effects query (and the pending query) in one read-only transaction,
// which it then rolls back, so it never writes. PostgreSQL begins it READ
// ONLY, MySQL and MariaDB START TRANSACTION READ ONLY, and SQLite is
// opened read-only with query_only set. The two queries read one moment
// of the database: the transaction is REPEATABLE READ on PostgreSQL (whose
// default, READ COMMITTED, gives each statement a moment of its own) and
// on MySQL and MariaDB (their default, which a server may change); a
// SQLite read transaction is one moment already. Else a job that ends
// between the two reads is neither pending nor among the effects read,
// and the run settles on effects that miss it.
type SQL struct {
	src  Source
	opts SQLOptions
	db   *sql.DB
}

// OpenSQL returns the SQL oracle of src. It connects only when read; Close
// it when done.
func OpenSQL(src Source, opts SQLOptions) (*SQL, error) {
	if strings.TrimSpace(opts.EffectsQuery) == "" {
		return nil, failed(ReasonEffectsQuery, "no effects query: give one returning (id, times) rows, e.g. SELECT event_id, count(*) FROM ledger GROUP BY event_id", nil)
	}
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		if network == "unix" || opts.Dial == nil {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		}
		return opts.Dial(ctx, network, addr)
	}
	var db *sql.DB
	switch src.Kind {
	case Postgres:
		cfg := src.pg.Copy()
		cfg.DialFunc = dial
		cfg.Fallbacks = nil
		db = stdlib.OpenDB(*cfg)
	case MySQL:
		cfg := src.my.Clone()
		cfg.DialFunc = dial
		conn, err := mysql.NewConnector(cfg)
		if err != nil {
			return nil, failed(ReasonAnswer, err.Error(), err)
		}
		db = sql.OpenDB(conn)
	case SQLite:
		var err error
		if db, err = sql.Open("sqlite", sqliteDSN(src.Database)); err != nil {
			return nil, failed(ReasonAnswer, err.Error(), err)
		}
	default:
		return nil, fmt.Errorf("%w: unknown kind %q", ErrSource, src.Kind)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	return &SQL{src: src, opts: opts, db: db}, nil
}

// Close closes the connection.
func (o *SQL) Close() error { return o.db.Close() }

// Read runs the queries in one read-only transaction.
func (o *SQL) Read(ctx context.Context) (Reading, error) {
	if o.src.Kind == SQLite && fileMissing(o.src.Database) {
		return Reading{}, failed(ReasonNoDatabase, fmt.Sprintf("no SQLite file at %s", o.src.Database), nil)
	}
	opts := &sql.TxOptions{ReadOnly: true}
	if o.src.Kind != SQLite {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := o.db.BeginTx(ctx, opts)
	if err != nil {
		return Reading{}, o.classify(ReasonUnreachable, "", err)
	}
	defer tx.Rollback()
	m, err := o.effects(ctx, tx)
	if err != nil {
		return Reading{}, err
	}
	r := Reading{Effects: m}
	if o.opts.PendingQuery != "" {
		if r.Pending, err = o.pending(ctx, tx); err != nil {
			return Reading{}, err
		}
		r.HasPending = true
	}
	return r, nil
}

func (o *SQL) effects(ctx context.Context, tx *sql.Tx) (map[string]int, error) {
	rows, err := tx.QueryContext(ctx, o.opts.EffectsQuery)
	if err != nil {
		return nil, o.classify(ReasonEffectsQuery, "the effects query", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, o.classify(ReasonEffectsQuery, "the effects query", err)
	}
	if len(cols) != 2 {
		return nil, failed(ReasonEffectsQuery, fmt.Sprintf("the effects query returns %d %s (%s): it must return 2, the dedup id and the times processed (SELECT event_id, count(*) FROM … GROUP BY event_id)",
			len(cols), plural(len(cols), "column", "columns"), strings.Join(cols, ", ")), nil)
	}
	m := map[string]int{}
	var (
		id    sql.NullString
		times sql.NullInt64
	)
	for rows.Next() {
		if err := rows.Scan(&id, &times); err != nil {
			return nil, failed(ReasonEffectsQuery, fmt.Sprintf("the effects query's rows must be (id text, times integer): %s", err), err)
		}
		if !id.Valid || !times.Valid {
			return nil, failed(ReasonEffectsQuery, "the effects query returned a NULL id or count: filter NULL ids out (WHERE event_id IS NOT NULL) and count with count(*)", nil)
		}
		n, err := checkTimes(times.Int64)
		if err != nil {
			return nil, failed(ReasonEffectsQuery, fmt.Sprintf("the effects query's count for %q: %s", clip(id.String), err), nil)
		}
		m[id.String] += n
		if m[id.String] > MaxTimes {
			return nil, failed(ReasonEffectsQuery, fmt.Sprintf("the effects query's counts for %q add up past %d: group by the id", clip(id.String), MaxTimes), nil)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, o.classify(ReasonEffectsQuery, "the effects query", err)
	}
	return m, nil
}

func (o *SQL) pending(ctx context.Context, tx *sql.Tx) (int, error) {
	rows, err := tx.QueryContext(ctx, o.opts.PendingQuery)
	if err != nil {
		return 0, o.classify(ReasonPendingQuery, "the pending query", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return 0, o.classify(ReasonPendingQuery, "the pending query", err)
	}
	const shape = "it must return one row of one integer, the jobs not yet done (SELECT count(*) FROM jobs)"
	if len(cols) != 1 {
		return 0, failed(ReasonPendingQuery, fmt.Sprintf("the pending query returns %d columns (%s): %s", len(cols), strings.Join(cols, ", "), shape), nil)
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return 0, o.classify(ReasonPendingQuery, "the pending query", err)
		}
		return 0, failed(ReasonPendingQuery, "the pending query returns no row: "+shape, nil)
	}
	var n sql.NullInt64
	if err := rows.Scan(&n); err != nil || !n.Valid {
		return 0, failed(ReasonPendingQuery, "the pending query's value is not an integer: "+shape, err)
	}
	if rows.Next() {
		return 0, failed(ReasonPendingQuery, "the pending query returns more than one row: "+shape, nil)
	}
	p, err := checkTimes(n.Int64)
	if err != nil {
		return 0, failed(ReasonPendingQuery, "the pending query: "+err.Error(), nil)
	}
	return p, rows.Err()
}

// classify names the problem behind a driver's error.
func (o *SQL) classify(fallback Reason, what string, err error) error {
	reason := fallback
	var (
		pg *pgconn.PgError
		ce *pgconn.ConnectError
		my *mysql.MySQLError
		op *net.OpError
	)
	switch {
	case errors.As(err, &pg):
		switch {
		case pg.Code == "28P01" || pg.Code == "28000":
			reason = ReasonLogin
		case pg.Code == "3D000":
			reason = ReasonNoDatabase
		case pg.Code == "42501":
			reason = ReasonDenied
		case pg.Code == "42P01" || pg.Code == "42703" || pg.Code == "3F000":
			reason = ReasonNoTable
		}
	case errors.As(err, &my):
		switch my.Number {
		case 1045, 1698:
			reason = ReasonLogin
		case 1044, 1142, 1143:
			reason = ReasonDenied
		case 1049:
			reason = ReasonNoDatabase
		case 1146, 1054:
			reason = ReasonNoTable
		}
	case errors.As(err, &op), errors.Is(err, mysql.ErrInvalidConn), errors.As(err, &ce):
		reason = ReasonUnreachable
	case o.src.Kind == SQLite && (strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "no such column")):
		reason = ReasonNoTable
	case o.src.Kind == SQLite && strings.Contains(err.Error(), "unable to open"):
		reason = ReasonNoDatabase
	}
	problem := err.Error()
	if what != "" {
		problem = what + ": " + problem
	}
	return failed(reason, o.src.String()+": "+problem, err)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
