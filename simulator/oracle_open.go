package simulator

import (
	"context"
	"time"

	"github.com/retrysim/retrysim/simulator/oracle"
)

// The oracle's timeouts: an HTTP oracle's whole GET, a database's
// connection, and the least real time a database read is given. A read
// is a timeout, not a wait: a healthy database answers in milliseconds,
// and the floor only keeps a loaded machine (or a short --settle) from
// cutting a read that would have answered.
const (
	oracleHTTPTimeout = 30 * time.Second
	oracleDialTimeout = 10 * time.Second
	oracleReadFloor   = 5 * time.Second
)

// OracleAt is the oracle of a user's handler that serves its side effects
// as JSON at url (oracle.HTTP), asked with the engine's own client: a 30 s
// timeout, no proxy taken from the environment (as the deliveries take
// none), and loopback addresses only unless allowRemote.
func OracleAt(url string, allowRemote bool) oracle.Oracle {
	return oracle.HTTP(url, guardedClient(clientOptions{timeout: oracleHTTPTimeout, allowRemote: allowRemote, noKeepAlive: true, hosts: []string{hostOf(url)}}))
}

// OpenDatabaseOracle opens the oracle of a user's handler whose side
// effects are in the database src, dialled as the deliveries are (loopback
// only unless allowRemote), and reads it once, so that a database that
// cannot be read is refused before a run rather than found after it. The
// read is given the time given or the time a connection may take, which
// is longer: the settle window bounds waiting for effects, not how long a
// database may take to say hello. Its error is an *oracle.Error saying why.
func OpenDatabaseOracle(ctx context.Context, src oracle.Source, effectsQuery, pendingQuery string, allowRemote bool, within time.Duration) (*oracle.SQL, error) {
	o, err := oracle.OpenSQL(src, oracle.SQLOptions{
		EffectsQuery: effectsQuery, PendingQuery: pendingQuery,
		Dial: oracle.DialFunc(GuardedDial(oracleDialTimeout, allowRemote, nil, src.Host)),
	})
	if err != nil {
		return nil, err
	}
	rctx, cancel := context.WithTimeout(ctx, max(within, oracleDialTimeout))
	defer cancel()
	if _, err := o.Read(rctx); err != nil {
		o.Close()
		return nil, err
	}
	return o, nil
}
