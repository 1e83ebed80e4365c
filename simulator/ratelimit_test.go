package simulator

import (
	"context"
	"errors"
	"math"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"github.com/retrysim/retrysim/policies/policytest"
	"github.com/retrysim/retrysim/scenarios"
)

var wallStart = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func TestRateLimiterSpacesRequests(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	fc := clockwork.NewFakeClockAt(wallStart)
	l := newRateLimiter(4, fc) // one request every 250ms
	const n = 5
	released := make(chan time.Time, n)
	for range n {
		go func() {
			if err := l.wait(ctx); err == nil {
				released <- fc.Now()
			}
		}()
	}
	// One goes at once; the others wait for their turn.
	if err := fc.BlockUntilContext(ctx, n-1); err != nil {
		t.Fatal(err)
	}
	if at := <-released; !at.Equal(wallStart) {
		t.Fatalf("first request released at %s, want at once", at)
	}
	for k := 1; k < n; k++ {
		fc.Advance(250*time.Millisecond - time.Nanosecond)
		select {
		case <-released:
			t.Fatalf("request %d released before its 250ms turn", k+1)
		default:
		}
		fc.Advance(time.Nanosecond)
		if at := <-released; at.Sub(wallStart) != time.Duration(k)*250*time.Millisecond {
			t.Fatalf("request %d released at +%s, want +%s", k+1, at.Sub(wallStart), time.Duration(k)*250*time.Millisecond)
		}
		if err := fc.BlockUntilContext(ctx, n-1-k); err != nil {
			t.Fatal(err)
		}
	}
}

func TestRateLimiterIdleTimeIsNotBanked(t *testing.T) {
	fc := clockwork.NewFakeClockAt(wallStart)
	l := newRateLimiter(2, fc)
	ctx := context.Background()
	if err := l.wait(ctx); err != nil {
		t.Fatal(err)
	}
	fc.Advance(time.Hour)
	// After a long pause one request goes at once, the next waits its turn:
	// a quiet spell does not allow a burst.
	if err := l.wait(ctx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- l.wait(ctx) }()
	waiting := make(chan error, 1)
	go func() { waiting <- fc.BlockUntilContext(ctx, 1) }()
	select {
	case <-done:
		t.Fatal("the second request after the pause went at once: the quiet spell was banked as a burst")
	case err := <-waiting:
		if err != nil {
			t.Fatal(err)
		}
	}
	fc.Advance(500 * time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestRateLimiterGivesUpWithItsContext(t *testing.T) {
	fc := clockwork.NewFakeClockAt(wallStart)
	l := newRateLimiter(1, fc)
	if err := l.wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- l.wait(ctx) }()
	if err := fc.BlockUntilContext(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("wait = %v, want context.Canceled", err)
	}
}

func TestNoRateLimitWithoutACap(t *testing.T) {
	for _, rps := range []float64{0, -1} {
		if l := newRateLimiter(rps, clockwork.NewRealClock()); l != nil {
			t.Errorf("newRateLimiter(%g) limits; want no limit", rps)
		}
	}
}

// TestRunHonoursMaxRPS checks that the engine waits for the limiter before
// each attempt: with the wall clock frozen, only the first attempt goes, and
// each later one goes when the clock reaches its turn.
func TestRunHonoursMaxRPS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pol := policytest.Lookup(t, "stripe")
	var arrived atomic.Int32
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { arrived.Add(1) })
	wall := clockwork.NewFakeClockAt(wallStart)
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{
			Policy: pol, Scenario: scenarios.Scenario{Name: "none"}, Handler: h, Events: 3,
			Over: time.Millisecond, Concurrency: 3, MaxRPS: 10, WallClock: wall,
		})
		done <- err
	}()
	// The three events are about one object, so each is sent once the one
	// before has reached the handler, and then waits for its turn.
	for turn := int32(1); turn < 3; turn++ {
		if err := wall.BlockUntilContext(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if got := arrived.Load(); got > turn {
			t.Fatalf("%d requests arrived before turn %d came", got, turn+1)
		}
		wall.Advance(100 * time.Millisecond)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := arrived.Load(); got != 3 {
		t.Fatalf("%d requests arrived, want 3", got)
	}
}

func TestMaxRPSIsValidated(t *testing.T) {
	pol := policytest.Lookup(t, "stripe")
	for _, rps := range []float64{-1, MaxMaxRPS + 1, math.NaN()} {
		_, err := Run(context.Background(), Config{Policy: pol, DryRun: true, MaxRPS: rps})
		if !errors.Is(err, ErrConfig) {
			t.Errorf("MaxRPS %g: error %v, want ErrConfig", rps, err)
		}
	}
}

// TestAttacksHonourMaxRPS: an attack request waits for its turn like an
// attempt: with the wall clock frozen, the attempt goes and the attack
// beside it waits.
func TestAttacksHonourMaxRPS(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pol := policytest.Lookup(t, "stripe")
	sc, err := scenarios.Decode("t.yaml", []byte("name: t\nfaults: [{type: bad-signature}]"))
	if err != nil {
		t.Fatal(err)
	}
	var arrived atomic.Int32
	h := http.HandlerFunc(func(http.ResponseWriter, *http.Request) { arrived.Add(1) })
	wall := clockwork.NewFakeClockAt(wallStart)
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, Config{Policy: pol, Scenario: sc, Handler: h, Events: 1, MaxRPS: 10, WallClock: wall, Secret: "s"})
		done <- err
	}()
	if err := wall.BlockUntilContext(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if got := arrived.Load(); got != 1 {
		t.Fatalf("%d requests arrived while the attack waited for its turn, want the attempt alone", got)
	}
	wall.Advance(100 * time.Millisecond)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := arrived.Load(); got != 2 {
		t.Fatalf("%d requests arrived, want the attempt and the attack", got)
	}
}
