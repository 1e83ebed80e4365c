package simulator

import (
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"

	"github.com/retrysim/retrysim/policies"
)

// doFollowing sends req and, while the answer is a redirect and fewer than
// follow have been followed, sends the same request again to the answer's
// Location (resolved against the URL that answered): the same method, the
// same headers (the signature too: a provider signs once per attempt) and
// the same body. Go's client would turn a POST into a bodyless GET on a 301,
// 302 or 303, so the client never follows by itself (see guardedClient).
// Every request goes through client, whose dialer refuses addresses that
// are not loopback unless remote targets are allowed, so a redirect cannot
// lead anywhere the target could not. It returns the last answer and how
// many redirects were followed; a redirect still there after follow of them
// is returned as it is, for the engine to classify. When following a
// redirect could not connect where it led, that is returned (led) with the
// error (err), and nothing was sent there: where the dialer refused to
// connect (err is ErrRemoteTarget), the redirect is returned as it is (its
// body already read), for the handler answered and what it answered cannot
// be followed; where no connection could be made (refused by the address,
// no route), there is no answer (resp is nil).
func doFollowing(client *http.Client, req *http.Request, follow int) (resp *http.Response, hops int, led *url.URL, err error) {
	resp, err = client.Do(req)
	for ; err == nil && hops < follow; hops++ {
		next := redirectOf(req, resp)
		if next == nil {
			break
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxBody))
		resp.Body.Close()
		redirect := resp
		req = next
		if resp, err = client.Do(req); err != nil && dialFailed(err) {
			if errors.Is(err, ErrRemoteTarget) {
				redirect.Body = http.NoBody
				return redirect, hops, next.URL, err
			}
			led = next.URL
		}
	}
	return resp, hops, led, err
}

// dialFailed says err is a connection that could not be made, the
// dialer's own refusal among them: nothing was sent on it.
func dialFailed(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

// redirectOf is req sent again to where resp redirects it, or nil when resp
// is no redirect a provider follows (or req's body cannot be sent again).
func redirectOf(req *http.Request, resp *http.Response) *http.Request {
	if !policies.IsRedirect(resp.StatusCode) {
		return nil
	}
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil
	}
	u, err := req.URL.Parse(loc)
	if err != nil {
		return nil
	}
	next := req.Clone(req.Context())
	next.URL, next.Host = u, ""
	switch {
	case req.GetBody != nil:
		if next.Body, err = req.GetBody(); err != nil {
			return nil
		}
	case req.Body != nil && req.Body != http.NoBody:
		return nil
	}
	return next
}
