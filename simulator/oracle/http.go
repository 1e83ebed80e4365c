package oracle

import (
	"context"
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
	r, err := decodeReading(newScanner(body))
	if err != nil {
		if body.N <= 0 {
			return Reading{}, failed(ReasonAnswer, fmt.Sprintf("%s: the answer is larger than %d MiB", what, MaxAnswer>>20), nil)
		}
		return Reading{}, failed(ReasonAnswer, fmt.Sprintf(`%s: expected {"<dedup id>": <times processed>} or {"effects": {…}, "pending": <jobs queued>}: %s`, what, err), err)
	}
	return r, nil
}

// decodeReading reads one answer. A top-level "effects" whose value is an
// object makes it the wrapped form, where "pending" is the work queued;
// otherwise every key is a dedup id.
func decodeReading(s *scanner) (Reading, error) {
	if err := s.expect('{'); err != nil {
		return Reading{}, err
	}
	flat := map[string]int{}
	var (
		wrapped    bool
		effects    map[string]int
		pending    = -1
		otherKey   string
		pendingKey = "pending"
	)
	err := members(s, func(key string, first byte) error {
		switch {
		case key == "effects" && first == '{' && !wrapped:
			wrapped = true
			effects = map[string]int{}
			if err := members(s, func(id string, first byte) error { return countInto(s, effects, id, first) }); err != nil {
				return fmt.Errorf(`"effects": %w`, err)
			}
			return nil
		case key == pendingKey && pending < 0:
			if !isNumberStart(first) {
				return fmt.Errorf(`"pending" must be a number of jobs, got %s`, kindOf(first))
			}
			text, err := s.number(first)
			if err != nil {
				return err
			}
			if pending, err = parseTimes(text); err != nil {
				return fmt.Errorf(`"pending": %w`, err)
			}
			return nil
		}
		otherKey = key
		return countInto(s, flat, key, first)
	})
	if err != nil {
		return Reading{}, err
	}
	if err := s.end(); err != nil {
		return Reading{}, err
	}
	if wrapped {
		if otherKey != "" {
			return Reading{}, fmt.Errorf(`unexpected key %q beside "effects" (only "pending" may stand there)`, clip(otherKey))
		}
		return Reading{Effects: effects, Pending: max(pending, 0), HasPending: pending >= 0}, nil
	}
	if pending >= 0 {
		flat[pendingKey] = pending // a dedup id that happens to be "pending"
	}
	return Reading{Effects: flat}, nil
}

// members reads the members of an object whose '{' was read, calling
// each with its key and the first byte of its value, which each must
// read.
func members(s *scanner, each func(key string, first byte) error) error {
	c, err := s.next()
	if err != nil {
		return err
	}
	if c == '}' {
		return nil
	}
	for {
		if c != '"' {
			return fmt.Errorf("expected a key, got %s", kindOf(c))
		}
		key, err := s.str()
		if err != nil {
			return err
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		first, err := s.next()
		if err != nil {
			return err
		}
		if err := each(key, first); err != nil {
			return err
		}
		if c, err = s.next(); err != nil {
			return err
		}
		switch c {
		case '}':
			return nil
		case ',':
			if c, err = s.next(); err != nil {
				return err
			}
		default:
			return fmt.Errorf("expected ',' or '}', got %s", kindOf(c))
		}
	}
}

func countInto(s *scanner, m map[string]int, key string, first byte) error {
	if !isNumberStart(first) {
		return fmt.Errorf("the count of %q must be a number, got %s", clip(key), kindOf(first))
	}
	text, err := s.number(first)
	if err != nil {
		return err
	}
	times, err := parseTimes(text)
	if err != nil {
		return fmt.Errorf("the count of %q: %w", clip(key), err)
	}
	m[key] = times
	return nil
}

// clip shows at most 64 bytes of an id from an answer.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
