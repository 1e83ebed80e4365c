package oracle_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/retrysim/retrysim/simulator/oracle"
)

func answer(status int, body string) *http.Response {
	return &http.Response{StatusCode: status, Status: http.StatusText(status), Body: io.NopCloser(strings.NewReader(body))}
}

// An HTTP oracle's answer: the flat map, or the effects with the work
// pending; a count that is not a plausible integer is refused, never
// believed (9223372036854775807 once overflowed into "-20 extra side
// effects").
func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       oracle.Reading
		problem    string
	}{
		{"flat", `{"evt_1": 2, "evt_2": 1}`, oracle.Reading{Effects: map[string]int{"evt_1": 2, "evt_2": 1}}, ""},
		{"empty", `{}`, oracle.Reading{Effects: map[string]int{}}, ""},
		{"wrapped with pending", `{"pending": 3, "effects": {"evt_1": 1}}`, oracle.Reading{Effects: map[string]int{"evt_1": 1}, Pending: 3, HasPending: true}, ""},
		{"wrapped, nothing pending", `{"effects": {}, "pending": 0}`, oracle.Reading{Effects: map[string]int{}, HasPending: true}, ""},
		{"wrapped without pending", `{"effects": {"a": 1}}`, oracle.Reading{Effects: map[string]int{"a": 1}}, ""},
		{"ids named pending and effects in a flat map", `{"pending": 2, "effects": 1}`, oracle.Reading{Effects: map[string]int{"pending": 2, "effects": 1}}, ""},
		{"a count that overflows", `{"evt_1": 9223372036854775807}`, oracle.Reading{}, "is not a plausible number of times"},
		{"a count past int64", `{"evt_1": 92233720368547758070}`, oracle.Reading{}, "is not a whole number of times"},
		{"a negative count", `{"evt_1": -1}`, oracle.Reading{}, "is not a plausible number of times"},
		{"a fraction", `{"evt_1": 1.5}`, oracle.Reading{}, "is not a whole number"},
		{"a string count", `{"evt_1": "2"}`, oracle.Reading{}, "must be a number"},
		{"pending not a number", `{"effects": {}, "pending": "x"}`, oracle.Reading{}, `"pending" must be a number`},
		{"another key beside effects", `{"effects": {}, "evt_1": 1}`, oracle.Reading{}, `unexpected key "evt_1"`},
		{"an array", `[1]`, oracle.Reading{}, "expected"},
		{"two values", `{} {}`, oracle.Reading{}, "more than one JSON value"},
		{"cut short", `{"evt_1": 1`, oracle.Reading{}, "expected"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := oracle.Decode("GET /fx", answer(200, tc.body))
			if tc.problem != "" {
				var oe *oracle.Error
				if !errors.As(err, &oe) || !errors.Is(err, oracle.ErrOracle) || !strings.Contains(oe.Problem, tc.problem) {
					t.Fatalf("Decode(%s) = %+v, %v: want a problem saying %q", tc.body, got, err, tc.problem)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Decode(%s) = %+v, %v; want %+v", tc.body, got, err, tc.want)
			}
		})
	}
}

func TestDecodeRefusesAnError(t *testing.T) {
	_, err := oracle.Decode("GET /fx", answer(503, `{}`))
	if err == nil || !strings.Contains(err.Error(), "GET /fx: Service Unavailable") {
		t.Errorf("a 503: %v", err)
	}
}

// A hung oracle does not hold the caller past its context.
func TestHTTPOracleIsBoundedByItsContext(t *testing.T) {
	hang := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(hang)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := oracle.HTTP(srv.URL, srv.Client()).Read(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("read with a cancelled context: %v, want context.Canceled", err)
	}
}

// Ids are JSON strings: escapes are unquoted, and a long one is read
// whole.
func TestDecodeStrings(t *testing.T) {
	long := strings.Repeat("x", 200_000)
	got, err := oracle.Decode("GET /fx", answer(200, `{"a\"b\\": 1, "\u00e9": 2, "`+long+`": 3, "c\\\\": 4}`))
	want := map[string]int{`a"b\`: 1, "é": 2, long: 3, `c\\`: 4}
	if err != nil || !reflect.DeepEqual(got.Effects, want) {
		t.Errorf("got %d ids, %v", len(got.Effects), err)
	}
}
