package oracle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
)

// MaxAnswer bounds an HTTP oracle's answer, in bytes.
const MaxAnswer = 64 << 20

// HTTP is the oracle of a handler that serves its side effects as JSON at
// url: each Read GETs it with client (which the caller builds: retrysim's
// own keeps to loopback unless remote targets are allowed).
func HTTP(url string, client *http.Client) Oracle {
	return httpOracle{url: url, client: client}
}

type httpOracle struct {
	url    string
	client *http.Client
}

func (o httpOracle) Read(ctx context.Context) (Reading, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, o.url, nil)
	if err != nil {
		return Reading{}, failed(ReasonAnswer, err.Error(), err)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return Reading{}, failed(ReasonUnreachable, err.Error(), err)
	}
	defer resp.Body.Close()
	return Decode("GET "+o.url, resp)
}

// Handler is the oracle of an in-process http.Handler that serves its side
// effects at path: each Read sends it a GET through ServeHTTP, with no
// socket.
func Handler(h http.Handler, path string) Oracle {
	return handlerOracle{h: h, path: path}
}

type handlerOracle struct {
	h    http.Handler
	path string
}

func (o handlerOracle) Read(ctx context.Context) (Reading, error) {
	req := httptest.NewRequestWithContext(ctx, http.MethodGet, o.path, nil)
	rec := httptest.NewRecorder()
	o.h.ServeHTTP(rec, req)
	return Decode("GET "+o.path, rec.Result())
}

// Decode reads an oracle's HTTP answer, named what in problems: 200 with
// {"<dedup id>": <times processed>} or {"effects": {…}, "pending": N}, at
// most MaxAnswer bytes. It decodes as it reads, so an answer costs about
// the map it makes, and refuses a count that is not a plausible integer
// (MaxTimes).
func Decode(what string, resp *http.Response) (Reading, error) {
	if resp.StatusCode != http.StatusOK {
		return Reading{}, failed(ReasonAnswer, what+": "+resp.Status, nil)
	}
	body := &io.LimitedReader{R: resp.Body, N: MaxAnswer + 1}
	r, err := decodeReading(json.NewDecoder(body))
	if err != nil {
		if body.N <= 0 {
			return Reading{}, failed(ReasonAnswer, fmt.Sprintf("%s: the answer is larger than %d MiB", what, MaxAnswer>>20), nil)
		}
		return Reading{}, failed(ReasonAnswer, fmt.Sprintf(`%s: expected {"<dedup id>": <times processed>} or {"effects": {…}, "pending": <jobs queued>}: %s`, what, err), err)
	}
	return r, nil
}

// decodeReading reads one answer token by token. A top-level "effects"
// whose value is an object makes it the wrapped form, where "pending" is
// the work queued; otherwise every key is a dedup id.
func decodeReading(d *json.Decoder) (Reading, error) {
	d.UseNumber()
	if err := delim(d, '{'); err != nil {
		return Reading{}, err
	}
	flat := map[string]int{}
	var (
		wrapped              bool
		effects              map[string]int
		pending              int
		hasPending           bool
		pendingKey, otherKey string
	)
	for d.More() {
		key, err := stringToken(d)
		if err != nil {
			return Reading{}, err
		}
		if key == "effects" && !wrapped {
			tok, err := d.Token()
			if err != nil {
				return Reading{}, err
			}
			if tok == json.Delim('{') {
				wrapped = true
				if effects, err = decodeCounts(d); err != nil {
					return Reading{}, fmt.Errorf(`"effects": %w`, err)
				}
				continue
			}
			if err := countInto(flat, key, tok); err != nil {
				return Reading{}, err
			}
			continue
		}
		tok, err := d.Token()
		if err != nil {
			return Reading{}, err
		}
		if key == "pending" {
			n, ok := tok.(json.Number)
			if !ok {
				return Reading{}, fmt.Errorf(`"pending" must be a number of jobs, got %v`, tok)
			}
			if pending, err = parseTimes(n.String()); err != nil {
				return Reading{}, fmt.Errorf(`"pending": %w`, err)
			}
			hasPending, pendingKey = true, key
			continue
		}
		otherKey = key
		if err := countInto(flat, key, tok); err != nil {
			return Reading{}, err
		}
	}
	if err := delim(d, '}'); err != nil {
		return Reading{}, err
	}
	if _, err := d.Token(); err != io.EOF {
		return Reading{}, errors.New("more than one JSON value")
	}
	if wrapped {
		if otherKey != "" {
			return Reading{}, fmt.Errorf(`unexpected key %q beside "effects" (only "pending" may stand there)`, otherKey)
		}
		return Reading{Effects: effects, Pending: pending, HasPending: hasPending}, nil
	}
	if hasPending {
		flat[pendingKey] = pending // a dedup id that happens to be "pending"
	}
	return Reading{Effects: flat}, nil
}

// decodeCounts reads the rest of an object of counts whose '{' was read.
func decodeCounts(d *json.Decoder) (map[string]int, error) {
	m := map[string]int{}
	for d.More() {
		key, err := stringToken(d)
		if err != nil {
			return nil, err
		}
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		if err := countInto(m, key, tok); err != nil {
			return nil, err
		}
	}
	return m, delim(d, '}')
}

func countInto(m map[string]int, key string, tok json.Token) error {
	n, ok := tok.(json.Number)
	if !ok {
		return fmt.Errorf("the count of %q must be a number, got %s", clip(key), tokenKind(tok))
	}
	times, err := parseTimes(n.String())
	if err != nil {
		return fmt.Errorf("the count of %q: %w", clip(key), err)
	}
	m[key] = times
	return nil
}

func stringToken(d *json.Decoder) (string, error) {
	tok, err := d.Token()
	if err != nil {
		return "", err
	}
	s, ok := tok.(string)
	if !ok {
		return "", fmt.Errorf("expected a key, got %v", tok)
	}
	return s, nil
}

func delim(d *json.Decoder, want json.Delim) error {
	tok, err := d.Token()
	if err != nil {
		return err
	}
	if tok != want {
		return fmt.Errorf("expected %q, got %s", want, tokenKind(tok))
	}
	return nil
}

func tokenKind(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		if t == '{' || t == '}' {
			return "an object"
		}
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}

// clip shows at most 64 bytes of an id from an answer.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
