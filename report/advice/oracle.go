package advice

import (
	"errors"
	"fmt"
	"time"

	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/oracle"
)

// Oracle says a database effects oracle's problem (an *oracle.Error, by
// its Reason) in one line naming the flag to fix: --effects-url,
// --effects-query or --pending-query, or --allow-remote for a database on
// another machine.
func Oracle(err error) error {
	var oe *oracle.Error
	if !errors.As(err, &oe) {
		return fmt.Errorf("--effects-url: %w", err)
	}
	if errors.Is(err, simulator.ErrRemoteTarget) {
		return fmt.Errorf("--effects-url: %s: the database is not on this machine; pass --allow-remote to read it", oe.Problem)
	}
	switch oe.Reason {
	case oracle.ReasonUnreachable:
		return fmt.Errorf("--effects-url: cannot reach the database (%s): is the server running, at that host and port?", oe.Problem)
	case oracle.ReasonLogin:
		return fmt.Errorf("--effects-url: the database refused the login (%s): check the user and password in the URL", oe.Problem)
	case oracle.ReasonDenied:
		return fmt.Errorf("--effects-url: the database let the user in but refused it access (%s): check the database and table names, and grant the user what the queries read (SELECT on their tables; on PostgreSQL, CONNECT on the database)", oe.Problem)
	case oracle.ReasonNoDatabase:
		return fmt.Errorf("--effects-url: no such database (%s): check the database name or file path in the URL", oe.Problem)
	case oracle.ReasonNoTable:
		return fmt.Errorf("--effects-query or --pending-query names a table or column the database does not have (%s): check the query against your handler's schema", oe.Problem)
	case oracle.ReasonPendingQuery:
		return fmt.Errorf("--pending-query: %s", oe.Problem)
	}
	return fmt.Errorf("--effects-query: %s", oe.Problem)
}

// OracleFlags are --effects-url and the flags that go with it: a
// database's queries, and the quiet window.
type OracleFlags struct {
	EffectsURL, EffectsQuery, PendingQuery, SettleQuiet string
}

// Check reads the flags: --settle-quiet (0 when not given) and, when
// --effects-url names a database, its source (db true). The queries read
// a database, so they need a database URL, and a database URL needs
// --effects-query. Whether a database off this machine may be read is
// the caller's to check, against its resolver.
func (o OracleFlags) Check() (src oracle.Source, db bool, quiet time.Duration, errs []error) {
	if o.SettleQuiet != "" {
		d, err := Span("settle-quiet", o.SettleQuiet, simulator.CheckSettle)
		if err != nil {
			errs = append(errs, err)
		}
		quiet = d
	}
	if !oracle.IsDatabaseURL(o.EffectsURL) {
		for _, q := range []struct{ name, v string }{{"effects-query", o.EffectsQuery}, {"pending-query", o.PendingQuery}} {
			if q.v != "" {
				errs = append(errs, fmt.Errorf("--%s reads a database: give --effects-url postgres://…, mysql://… or sqlite:PATH", q.name))
			}
		}
		return src, false, quiet, errs
	}
	src, err := oracle.ParseSource(o.EffectsURL)
	if err != nil {
		return src, false, quiet, append(errs, fmt.Errorf("--effects-url: %w", err))
	}
	if o.EffectsQuery == "" {
		errs = append(errs, errors.New("--effects-url names a database: give --effects-query, returning one (id, times) row per dedup id, e.g. --effects-query 'SELECT event_id, count(*) FROM ledger GROUP BY event_id'"))
	}
	return src, true, quiet, errs
}
