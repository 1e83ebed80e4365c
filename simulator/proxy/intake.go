// Package proxy is the intake of retrysim's proxy: an HTTP handler that
// takes real webhook deliveries in, checks each one's signature as the
// handler would, and hands the good ones to the engine as its events
// (simulator.Config.Incoming).
package proxy

import (
	"errors"
	"fmt"
	"io"
	"log"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/report"
	"github.com/retrysim/retrysim/simulator"
	"github.com/retrysim/retrysim/simulator/capture"
)

// Intake takes deliveries in for the proxy: it checks each one's signature
// as the handler would, answers a bad one 400, saves a good one when asked,
// and hands it to the engine as the next event (Events).
type Intake struct {
	pol      policies.Policy
	wire     policies.Wire
	secret   string
	ack      bool
	captures string
	log      io.Writer
	sp       simulator.Spelling
	events   chan simulator.Incoming

	mu     sync.Mutex
	closed bool
	max    int // 0: no limit
	taken  int
	// refused counts the deliveries refused, by why; statuses holds the
	// statuses they were answered with (400, 413 for a body too large).
	refused  map[refusal]int
	statuses map[int]bool
	// types remembers each event's type, by its place in the run, for its
	// line when its schedule ends.
	types []string
}

// refusal is why a delivery was not taken in.
type refusal string

const (
	refusedUnsigned refusal = "unsigned"
	refusedStale    refusal = "stale"
	refusedForged   refusal = "forged"
	refusedUnread   refusal = "unreadable"
	refusedLimit    refusal = "over a limit"
)

// Option sets how an Intake takes deliveries in.
type Option func(*Intake)

// WithMax closes the intake once it has taken n deliveries (0, the
// default: no limit).
func WithMax(n int) Option { return func(in *Intake) { in.max = n } }

// WithAck answers each delivery 200 as soon as it is taken in, instead of
// with the handler's answer to its first attempt.
func WithAck() Option { return func(in *Intake) { in.ack = true } }

// WithCaptures saves each delivery taken in as a raw HTTP capture in dir.
func WithCaptures(dir string) Option { return func(in *Intake) { in.captures = dir } }

// WithSpelling spells the settings the intake's messages name (the
// secret, the captures' directory) sp's way; the default is Go's.
func WithSpelling(sp simulator.Spelling) Option { return func(in *Intake) { in.sp = sp } }

// SettingCaptures is the directory deliveries are saved in (WithCaptures).
const SettingCaptures simulator.Setting = "proxy.WithCaptures"

// queueSize is how many deliveries wait for the engine before a sender is
// told the proxy is momentarily full.
const queueSize = 256

// NewIntake returns an intake of pol's deliveries, signed with secret; it
// says what it refuses, and why, on log.
func NewIntake(pol policies.Policy, secret string, log io.Writer, opts ...Option) *Intake {
	in := &Intake{
		pol: pol, wire: pol.Wire(), secret: secret, log: log,
		events: make(chan simulator.Incoming, queueSize), refused: map[refusal]int{}, statuses: map[int]bool{},
	}
	for _, o := range opts {
		o(in)
	}
	return in
}

// Events are the deliveries taken in, for the engine; closed when the
// intake is.
func (in *Intake) Events() <-chan simulator.Incoming { return in.events }

// Bounds on what a delivery may bring in.
const (
	MaxBody   = 4 << 20
	MaxHeader = 64 << 10
)

// Server returns an HTTP server of the intake, with the bounds on what a
// delivery may bring in and how long it may take.
func (in *Intake) Server() *http.Server {
	return &http.Server{Handler: in, MaxHeaderBytes: MaxHeader, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: time.Minute, IdleTimeout: 2 * time.Minute, ErrorLog: log.New(io.Discard, "", 0)}
}

// Close ends the intake: no delivery is taken any more, and the engine is
// told no more will come. It may be called more than once.
func (in *Intake) Close() {
	in.mu.Lock()
	defer in.mu.Unlock()
	if !in.closed {
		in.closed = true
		close(in.events)
	}
}

// ServeHTTP takes one delivery in, or refuses it saying why.
func (in *Intake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "retrysim proxy takes webhook deliveries: POST only", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			in.refuse(w, refusedUnread, fmt.Sprintf("the body is larger than %d MiB", MaxBody>>20), http.StatusRequestEntityTooLarge)
			return
		}
		in.refuse(w, refusedUnread, "the body could not be read: "+err.Error(), http.StatusBadRequest)
		return
	}
	url := signedURLOf(r)
	if why, what := in.check(r.Header, body, url); why != "" {
		in.refuse(w, why, what, http.StatusBadRequest)
		return
	}
	id, err := in.wire.DedupID(r.Header, body)
	if err != nil || id == "" {
		in.refuse(w, refusedUnread, fmt.Sprintf("no dedup id (%s): %v", in.wire.DedupField(), err), http.StatusBadRequest)
		return
	}
	h := r.Header.Clone()
	simulator.DropConnectionHeaders(h)
	first := make(chan simulator.FirstAnswer, 1)
	ev := simulator.Incoming{ID: id, Type: policies.ReadEventType(in.wire, h, body), Body: body, Header: h, First: first}
	if err := simulator.CheckIncoming(&ev); err != nil {
		// The engine cannot carry it: refused here, before the sender
		// is told anything else, and the proxy goes on.
		in.refuse(w, refusedLimit, fmt.Sprintf("%v (%s)", err, in.wire.DedupField()), http.StatusBadRequest)
		return
	}
	n, err := in.take(ev)
	switch {
	case errors.Is(err, errIntakeFull):
		// A sender's tool retries a 503 later: say when.
		w.Header().Set("Retry-After", strconv.Itoa(int(intakeRetryAfter/time.Second)))
		http.Error(w, fmt.Sprintf("retrysim proxy is momentarily full (%d deliveries wait for the engine): retry in %s", cap(in.events), intakeRetryAfter), http.StatusServiceUnavailable)
		return
	case err != nil:
		http.Error(w, "retrysim proxy is not taking deliveries any more", http.StatusServiceUnavailable)
		return
	}
	if in.captures != "" {
		in.save(n, id, r, url, body)
	}
	if in.ack {
		w.WriteHeader(http.StatusOK)
		return
	}
	// The handler's answer to the first attempt, as the provider's own
	// tool would have seen it; bounded by the provider's timeout and a
	// margin for the attempts queued before it.
	select {
	case a := <-first:
		if a.HandlerStatus == 0 {
			why := string(a.Outcome)
			if a.Fault != "" {
				why += ", injected by the scenario: " + a.Fault
			}
			http.Error(w, "retrysim proxy: your handler gave no answer to the first attempt ("+why+")", http.StatusGatewayTimeout)
			return
		}
		w.WriteHeader(a.HandlerStatus)
	case <-time.After(in.pol.Timeout.D() + 30*time.Second):
		http.Error(w, "retrysim proxy: the first attempt is still waiting its turn", http.StatusGatewayTimeout)
	case <-r.Context().Done():
	}
}

// check verifies a delivery as a careful handler would: it must carry the
// provider's signature, made with the secret, with a timestamp within the
// scheme's tolerance. It returns why it is refused, and in words, or "".
func (in *Intake) check(h http.Header, body []byte, url string) (refusal, string) {
	if s, ok := policies.SchemeOf(in.wire); ok {
		signed := false
		for _, k := range s.Headers {
			signed = signed || h.Get(k) != ""
		}
		if !signed {
			return refusedUnsigned, fmt.Sprintf("no %s header: not a signed %s delivery", strings.Join(s.Headers, " or "), in.wire.Name())
		}
	}
	err := in.wire.Verify(h, body, url, in.secret, time.Now())
	switch {
	case err == nil:
		return "", ""
	case errors.Is(err, policies.ErrStaleSignature):
		return refusedStale, err.Error()
	default:
		return refusedForged, err.Error() + " (is " + in.sp.Of(simulator.SettingSecret) + " the secret the sender signs with?)"
	}
}

// Why take refused a delivery.
var (
	errIntakeClosed = errors.New("the intake is closed")
	errIntakeFull   = errors.New("the intake is full")
)

// intakeRetryAfter is when a sender refused by a full intake is told to
// try again: soon, as the queue is full only while the engine catches up,
// and in the whole seconds Retry-After is written in.
const intakeRetryAfter = time.Second

// take hands ev to the engine, unless the intake is closed
// (errIntakeClosed) or momentarily full (errIntakeFull), and returns its
// number, from 1; the delivery that reaches --events closes it.
func (in *Intake) take(ev simulator.Incoming) (int, error) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.closed {
		return 0, errIntakeClosed
	}
	select {
	case in.events <- ev:
	default:
		return 0, errIntakeFull // the engine is this far behind: the sender retries later
	}
	in.taken++
	in.types = append(in.types, ev.Type)
	if in.max > 0 && in.taken >= in.max {
		in.closed = true
		close(in.events)
	}
	return in.taken, nil
}

func (in *Intake) refuse(w http.ResponseWriter, why refusal, what string, status int) {
	in.mu.Lock()
	in.refused[why]++
	in.statuses[status] = true
	in.mu.Unlock()
	fmt.Fprintf(in.log, "retrysim proxy: refused a delivery (%s): %s\n", why, report.EscapeText(what))
	http.Error(w, "retrysim proxy refused the delivery ("+string(why)+"): "+what, status)
}

// TypeOf is the type of the event at place seq, "" when unknown.
func (in *Intake) TypeOf(seq int) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	if seq < 0 || seq >= len(in.types) {
		return ""
	}
	return in.types[seq]
}

// Summary says what came in, for stderr at the end.
func (in *Intake) Summary() string {
	in.mu.Lock()
	defer in.mu.Unlock()
	s := fmt.Sprintf("retrysim proxy: %d %s taken in", in.taken, policies.Plural(in.taken, "delivery", "deliveries"))
	var parts []string
	for _, why := range []refusal{refusedForged, refusedStale, refusedUnsigned, refusedUnread, refusedLimit} {
		if n := in.refused[why]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, why))
		}
	}
	if len(parts) > 0 {
		var answered []string
		for _, code := range slices.Sorted(maps.Keys(in.statuses)) {
			answered = append(answered, strconv.Itoa(code))
		}
		s += "; refused " + strings.Join(parts, ", ") + " (answered " + strings.Join(answered, " or ") + ", never forwarded)"
	}
	return s
}

// maxCaptureName is the most of an id a capture's file name holds.
const maxCaptureName = 100

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// save writes the delivery as a raw HTTP capture, numbered in the order
// the deliveries came in. A failure to save is said, not fatal.
func (in *Intake) save(n int, id string, r *http.Request, url string, body []byte) {
	// A file name holds at most 255 bytes: a long id is cut.
	safe := unsafeName.ReplaceAllString(id, "_")
	safe = safe[:min(len(safe), maxCaptureName)]
	name := filepath.Join(in.captures, fmt.Sprintf("%04d-%s.http", n, safe))
	c := capture.Request{Method: r.Method, URL: url, Header: r.Header.Clone(), Body: body}
	simulator.DropConnectionHeaders(c.Header)
	if err := os.WriteFile(name, c.Raw(), 0o644); err != nil {
		fmt.Fprintf(in.log, "retrysim proxy: %s: %v\n", in.sp.Of(SettingCaptures), err)
	}
}

// signedURLOf is the URL the sender signed the delivery for, as far as the
// request tells it: Twilio signs the public URL a tunnel forwards from.
func signedURLOf(r *http.Request) string {
	scheme := "http"
	if p := r.Header.Get("X-Forwarded-Proto"); p == "https" || p == "http" {
		scheme = p
	}
	host := r.Host
	if h := r.Header.Get("X-Forwarded-Host"); h != "" {
		host = h
	}
	return scheme + "://" + host + r.URL.RequestURI()
}
