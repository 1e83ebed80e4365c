// Package oracle reads a handler's side effects: how many times it
// processed each event, by dedup id, and, where the handler can say, how
// much work it still has queued. The engine asks an Oracle; this package
// holds the kinds a user points retrysim at:
//
//   - HTTP: a JSON endpoint of the handler's, answering
//     {"<dedup id>": <times processed>} or
//     {"effects": {"<dedup id>": <times processed>}, "pending": N};
//   - SQL: the handler's own database (PostgreSQL, MySQL/MariaDB or
//     SQLite), read with a counting query in a read-only transaction, so
//     the handler needs no code of retrysim's.
//
// An oracle counts everything its handler ever did; the engine reads it
// before a run (the baseline) and after it, and keeps only what changed,
// for the run's own ids.
package oracle

import (
	"context"
	"errors"
)

// Reading is one answer of an effects oracle.
type Reading struct {
	// Effects is how many times the handler processed each event, by
	// dedup id.
	Effects map[string]int
	// Pending is the work the handler says it still has queued (jobs not
	// yet done); it is meaningful only when HasPending is set.
	Pending int
	// HasPending says the oracle reports pending work: the engine then
	// knows when the handler is done instead of guessing from a quiet
	// period.
	HasPending bool
}

// Oracle is an effects oracle. Read is called before a run and, after it,
// until the effects settle; each call is bounded by ctx.
type Oracle interface {
	Read(ctx context.Context) (Reading, error)
}

// Func is an Oracle that reports no pending work: a function that returns
// the effects by dedup id.
type Func func(ctx context.Context) (map[string]int, error)

// Read calls f.
func (f Func) Read(ctx context.Context) (Reading, error) {
	m, err := f(ctx)
	return Reading{Effects: m}, err
}

// ErrOracle is returned, wrapped, when an effects oracle does not answer
// as expected.
var ErrOracle = errors.New("effects oracle")

// Error is an effects oracle that did not answer as expected: Problem says
// what was wrong, Reason what kind of problem it is. It matches ErrOracle
// (and Err, the error behind it, if any).
type Error struct {
	Problem string
	Reason  Reason
	Err     error
}

func (e *Error) Error() string { return ErrOracle.Error() + ": " + e.Problem }

// Unwrap returns ErrOracle and the error behind the problem.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrOracle}
	}
	return []error{ErrOracle, e.Err}
}

// Reason says what kind of problem an oracle had, so that a caller can say
// what to fix.
type Reason string

// The reasons of an oracle's Error.
const (
	// ReasonAnswer: the answer was not of the expected shape (the
	// default).
	ReasonAnswer Reason = ""
	// ReasonUnreachable: the oracle's server could not be reached (down,
	// or a wrong host or port).
	ReasonUnreachable Reason = "unreachable"
	// ReasonLogin: the database refused the user or password.
	ReasonLogin Reason = "login"
	// ReasonNoDatabase: the database named does not exist (or, for
	// SQLite, the file).
	ReasonNoDatabase Reason = "no_database"
	// ReasonDenied: the user logged in, but may not use the database
	// named or read a table the queries name (MySQL says so of a table
	// that does not exist, too).
	ReasonDenied Reason = "denied"
	// ReasonNoTable: the query names a table or column that does not
	// exist.
	ReasonNoTable Reason = "no_table"
	// ReasonEffectsQuery: the effects query failed or returned rows of
	// the wrong shape.
	ReasonEffectsQuery Reason = "effects_query"
	// ReasonPendingQuery: the pending query failed or did not return one
	// integer.
	ReasonPendingQuery Reason = "pending_query"
	// ReasonRemote: the database is not on this machine and remote
	// targets are not allowed.
	ReasonRemote Reason = "remote"
)

func failed(reason Reason, problem string, err error) error {
	return &Error{Problem: problem, Reason: reason, Err: err}
}
