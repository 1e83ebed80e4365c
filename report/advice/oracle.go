package advice

import (
	"errors"
	"fmt"

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
	case oracle.ReasonNoDatabase:
		return fmt.Errorf("--effects-url: no such database (%s): check the database name or file path in the URL", oe.Problem)
	case oracle.ReasonNoTable:
		return fmt.Errorf("--effects-query or --pending-query names a table or column the database does not have (%s): check the query against your handler's schema", oe.Problem)
	case oracle.ReasonPendingQuery:
		return fmt.Errorf("--pending-query: %s", oe.Problem)
	}
	return fmt.Errorf("--effects-query: %s", oe.Problem)
}
