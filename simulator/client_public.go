package simulator

import (
	"net/http"
	"time"
)

// NewClient returns a client built as the engine builds its own: timeout
// as the client's timeout, no redirect followed by itself, no proxy from
// the environment (deliveries never take one, so the effects oracle must
// not either), no idle connection kept, and unless allowRemote, loopback
// only, with host (the URL's, checked by CheckTarget) the one name it
// looks up (see GuardedDial).
func NewClient(timeout time.Duration, allowRemote bool, host string) *http.Client {
	return guardedClient(clientOptions{timeout: timeout, allowRemote: allowRemote, noKeepAlive: true, hosts: []string{host}})
}
