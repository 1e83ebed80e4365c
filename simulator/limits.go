package simulator

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/retrysim/retrysim/policies"
)

// LimitError says a setting's value is outside the range the engine takes.
// It carries the figures, so that a caller which took the value from
// somewhere else (a command-line flag, a config key) can say so in its own
// words; Error speaks of the setting itself.
type LimitError struct {
	// Setting is the setting refused.
	Setting Setting
	// Value is the value given, as Go prints it.
	Value string
	// Min and Max are the ends of the range, as printed; Min itself is
	// allowed unless AboveMin.
	Min, Max string
	// AboveMin says the range starts just above Min (a duration that
	// must be positive).
	AboveMin bool
	// Reserved says Value is one the engine keeps for itself (seed 0,
	// which means the default), rather than outside the range.
	Reserved bool
}

func (e *LimitError) Error() string {
	switch {
	case e.Reserved:
		return fmt.Sprintf("%s %s is reserved", e.Setting, e.Value)
	case e.AboveMin:
		return fmt.Sprintf("%s must be above %s and at most %s, got %s", e.Setting, e.Min, e.Max, e.Value)
	}
	return fmt.Sprintf("%s must be %s..%s, got %s", e.Setting, e.Min, e.Max, e.Value)
}

// countLimit checks a count in 1..max.
func countLimit(s Setting, n, max int) error {
	if n < 1 || n > max {
		return &LimitError{Setting: s, Value: strconv.Itoa(n), Min: "1", Max: strconv.Itoa(max)}
	}
	return nil
}

// spanLimit checks a duration above 0 and at most max.
func spanLimit(s Setting, d, max time.Duration) error {
	if d <= 0 || d > max {
		return &LimitError{Setting: s, Value: d.String(), Min: "0", Max: policies.FormatDuration(max), AboveMin: true}
	}
	return nil
}

// CheckEvents checks a run's number of events: 1..MaxEvents.
func CheckEvents(n int) error { return countLimit(SettingEvents, n, MaxEvents) }

// CheckConcurrency checks a run's attempts in flight: 1..MaxConcurrency.
func CheckConcurrency(n int) error { return countLimit(SettingConcurrency, n, MaxConcurrency) }

// CheckReplayTimes checks a replay's number of sends: 1..MaxReplayTimes.
func CheckReplayTimes(n int) error { return countLimit(SettingTimes, n, MaxReplayTimes) }

// CheckOver checks the span the first attempts are spread over: above 0,
// at most MaxOver.
func CheckOver(d time.Duration) error { return spanLimit(SettingOver, d, MaxOver) }

// CheckSettle checks the longest wait for the effects to settle: above 0,
// at most MaxSettle.
func CheckSettle(d time.Duration) error { return spanLimit(SettingSettleLimit, d, MaxSettle) }

// CheckMaxRPS checks a cap on requests per second: 0 (no cap) up to
// MaxMaxRPS. NaN is refused too.
func CheckMaxRPS(rps float64) error {
	if !(rps >= 0 && rps <= MaxMaxRPS) {
		return &LimitError{Setting: SettingMaxRPS, Value: strconv.FormatFloat(rps, 'g', -1, 64), Min: "0", Max: strconv.Itoa(MaxMaxRPS)}
	}
	return nil
}

// CheckSeed checks a seed: any but 0, which a Config reads as DefaultSeed.
func CheckSeed(seed uint64) error {
	if seed == 0 {
		return &LimitError{Setting: SettingSeed, Value: "0", Reserved: true}
	}
	return nil
}

// MaxDedupID is the longest dedup id, in bytes, an event may carry: the
// engine keeps an event in flight in a few bytes, its id's length among
// them.
const MaxDedupID = math.MaxUint16

// EventLimitError says an event brought in from outside (a real
// delivery, a capture, a payload file) carries a value longer than the
// engine takes. It carries the figures; Error says them.
type EventLimitError struct {
	// What names the value: "dedup id".
	What string
	// Len is the value's length in bytes, Max the longest taken.
	Len, Max int
}

func (e *EventLimitError) Error() string {
	return fmt.Sprintf("the %s is %d bytes long; the longest an event may carry is %d bytes", e.What, e.Len, e.Max)
}

// CheckDedupID checks an event's dedup id: at most MaxDedupID bytes. Every
// place an id enters from outside (a proxy's intake, a replayed capture, a
// payload file) asks it before the id reaches the engine.
func CheckDedupID(id string) error {
	if len(id) > MaxDedupID {
		return &EventLimitError{What: "dedup id", Len: len(id), Max: MaxDedupID}
	}
	return nil
}

// CheckIncoming checks a real delivery against every limit the engine
// enforces on an event (Config.Incoming): a delivery it refuses must not
// be sent on.
func CheckIncoming(in *Incoming) error { return CheckDedupID(in.ID) }
