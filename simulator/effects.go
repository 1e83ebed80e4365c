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
			return nil, fmt.Errorf("%w: %w", ErrEffects, err)
		}
		resp, err := client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrEffects, err)
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
		return nil, fmt.Errorf("%w: %s: %s", ErrEffects, what, resp.Status)
	}
	var m map[string]int
	body := &io.LimitedReader{R: resp.Body, N: maxEffects + 1}
	if err := json.NewDecoder(body).Decode(&m); err != nil {
		if body.N <= 0 {
			return nil, fmt.Errorf("%w: %s: the answer is larger than %d MiB", ErrEffects, what, maxEffects>>20)
		}
		return nil, fmt.Errorf(`%w: %s: expected {"<dedup id>": <times processed>}: %w`, ErrEffects, what, err)
	}
	if m == nil {
		m = map[string]int{}
	}
	return m, nil
}
