package simulator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"
)

// ErrEffects is returned, wrapped, when an effects oracle does not answer
// {"<dedup id>": <times processed>}.
var ErrEffects = errors.New("effects oracle")

// EffectsError is an effects oracle that did not answer as expected:
// Problem says what was wrong. It matches ErrEffects (and Err, the error
// behind it, if any).
type EffectsError struct {
	Problem string
	Err     error
}

func (e *EffectsError) Error() string { return ErrEffects.Error() + ": " + e.Problem }

// Unwrap returns ErrEffects and the error behind the problem.
func (e *EffectsError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrEffects}
	}
	return []error{ErrEffects, e.Err}
}

// effectsFailed is the EffectsError of err, which says the problem.
func effectsFailed(err error) error { return &EffectsError{Problem: err.Error(), Err: err} }

// maxEffects bounds an oracle's answer.
const maxEffects = 64 << 20

// EffectsURL is the effects oracle of a handler that serves its side effects
// as JSON, {"<dedup id>": <times processed>}, at url: each call GETs it with
// client. A nil client connects only to loopback addresses (as the engine
// does without Config.AllowRemote); pass a client of your own to reach
// another machine.
func EffectsURL(url string, client *http.Client) EffectsFunc {
	if client == nil {
		client = guardedClient(clientOptions{timeout: 30 * time.Second, noKeepAlive: true, hosts: []string{hostOf(url)}})
	}
	return func(ctx context.Context) (map[string]int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return nil, effectsFailed(err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, effectsFailed(err)
		}
		defer resp.Body.Close()
		return decodeEffects("GET "+url, resp)
	}
}

// EffectsFromHandler is the effects oracle of an in-process http.Handler
// that serves its side effects at path: each call sends it a GET through
// ServeHTTP, with no socket.
func EffectsFromHandler(h http.Handler, path string) EffectsFunc {
	return func(ctx context.Context) (map[string]int, error) {
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return decodeEffects("GET "+path, rec.Result())
	}
}

func decodeEffects(what string, resp *http.Response) (map[string]int, error) {
	if resp.StatusCode != http.StatusOK {
		return nil, &EffectsError{Problem: what + ": " + resp.Status}
	}
	var m map[string]int
	body := &io.LimitedReader{R: resp.Body, N: maxEffects + 1}
	if err := json.NewDecoder(body).Decode(&m); err != nil {
		if body.N <= 0 {
			return nil, &EffectsError{Problem: fmt.Sprintf("%s: the answer is larger than %d MiB", what, maxEffects>>20)}
		}
		return nil, &EffectsError{Problem: fmt.Sprintf(`%s: expected {"<dedup id>": <times processed>}: %s`, what, err), Err: err}
	}
	if m == nil {
		m = map[string]int{}
	}
	return m, nil
}
