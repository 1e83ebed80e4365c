package simulator

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// maxHandshakeAnswer is the most of a handshake's answer that is read:
// a challenge, a token pair or a PONG is a few bytes.
const maxHandshakeAnswer = 64 << 10

// handshake sends the provider's handshake (Slack's url_verification,
// Zoom's endpoint.url_validation, Discord's PING) before anything else, when
// the run asks for one and the policy's wire has one, signed as the
// provider signs it, and checks the answer as the provider does. It emits
// one handshake record, and reports whether the handshake failed: the
// provider then never enables the endpoint, and no event is sent.
func (e *engine) handshake(ctx context.Context) (bool, error) {
	if !e.cfg.Handshake || e.cfg.DryRun {
		return false, nil
	}
	hs, ok := policies.HandshakeOf(e.wire, e.cfg.Seed, e.cfg.Secret)
	if !ok {
		return false, nil
	}
	now := e.cfg.WallClock.Now()
	req, err := http.NewRequest(http.MethodPost, e.sendURL(), bytes.NewReader(hs.Body))
	if err != nil {
		return false, err
	}
	req.Header.Set("Content-Type", hs.ContentType)
	e.wire.Header(req.Header, policies.Delivery{Event: hs.Event, N: 1, Body: hs.Body, URL: e.target, Secret: e.cfg.Secret, SignedAt: policies.SigningTime(now, 1, 1)})
	req.Header.Set(VirtualTimeHeader, e.cfg.Start.UTC().Format(time.RFC3339Nano))
	e.addHeaders(req.Header)
	_ = e.rate.wait(context.WithoutCancel(ctx))

	status, header, body, latency, err := e.sendHandshake(ctx, req)
	problem := hs.Check(status, header, body)
	if err != nil && status == 0 {
		problem = fmt.Errorf("%w (%s)", problem, describe(err))
	}
	r := e.base
	r.Kind, r.Time, r.EventID, r.Seq = KindHandshake, e.cfg.Start, hs.Event.ID, -1
	r.Handshake, r.HandshakeExpect = hs.Name, hs.Expect
	r.Status, r.HandlerStatus, r.Reached = status, status, status != 0
	r.Latency = latency.Truncate(time.Microsecond)
	if problem != nil {
		r.HandshakeProblem = problem.Error()
	}
	if err := e.emit(r); err != nil {
		return false, err
	}
	if problem == nil {
		return false, nil
	}
	e.res.DisabledAt = e.cfg.Start
	e.disabledCause = DisabledByHandshake
	e.disabledBy = fmt.Sprintf("%s never enabled the endpoint: its %s handshake %s; it expects %s", e.cfg.Policy.Name, hs.Name, problem, hs.Expect)
	return true, nil
}

// sendHandshake sends req within the provider's timeout and returns the
// answer's status, headers and (the start of its) body.
func (e *engine) sendHandshake(ctx context.Context, req *http.Request) (int, http.Header, []byte, time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), e.cfg.Policy.Timeout.D())
	defer cancel()
	start := e.cfg.WallClock.Now()
	resp, err := e.client.Do(req.WithContext(ctx))
	if err != nil {
		return 0, nil, nil, e.cfg.WallClock.Since(start), err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxHandshakeAnswer))
	return resp.StatusCode, resp.Header, body, e.cfg.WallClock.Since(start), err
}
