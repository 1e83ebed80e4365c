package simulator

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/retrysim/retrysim/policies/policytest"
)

func TestLimits(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want *LimitError // nil: within the limit
	}{
		{"one event", CheckEvents(1), nil},
		{"the most events", CheckEvents(MaxEvents), nil},
		{"no events", CheckEvents(0), &LimitError{Setting: SettingEvents, Value: "0", Min: "1", Max: "10000000"}},
		{"too many events", CheckEvents(MaxEvents + 1), &LimitError{Setting: SettingEvents, Value: "10000001", Min: "1", Max: "10000000"}},
		{"too much concurrency", CheckConcurrency(MaxConcurrency + 1), &LimitError{Setting: SettingConcurrency, Value: "4097", Min: "1", Max: "4096"}},
		{"no sends", CheckReplayTimes(0), &LimitError{Setting: SettingTimes, Value: "0", Min: "1", Max: "10000"}},
		{"the longest spread", CheckOver(MaxOver), nil},
		{"no spread", CheckOver(0), &LimitError{Setting: SettingOver, Value: "0s", Min: "0", Max: "366d", AboveMin: true}},
		{"too long a spread", CheckOver(MaxOver + time.Second), &LimitError{Setting: SettingOver, Value: "8784h0m1s", Min: "0", Max: "366d", AboveMin: true}},
		{"too long a settle", CheckSettle(MaxSettle + time.Second), &LimitError{Setting: SettingSettleLimit, Value: "24h0m1s", Min: "0", Max: "1d", AboveMin: true}},
		{"no cap on the rate", CheckMaxRPS(0), nil},
		{"a negative rate", CheckMaxRPS(-1), &LimitError{Setting: SettingMaxRPS, Value: "-1", Min: "0", Max: "1000000"}},
		{"seed 0", CheckSeed(0), &LimitError{Setting: SettingSeed, Value: "0", Reserved: true}},
		{"seed 1", CheckSeed(1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == nil {
				if tc.err != nil {
					t.Fatalf("refused: %v", tc.err)
				}
				return
			}
			var le *LimitError
			if !errors.As(tc.err, &le) {
				t.Fatalf("got %v, want a *LimitError", tc.err)
			}
			if *le != *tc.want {
				t.Errorf("got %+v, want %+v", *le, *tc.want)
			}
		})
	}
}

// A Config's limits are the same checks: a bad value is refused with
// ErrConfig and the figures, and a zero one takes its default.
func TestConfigLimits(t *testing.T) {
	base := Config{Policy: policytest.Lookup(t, "stripe"), DryRun: true}
	for _, tc := range []struct {
		name    string
		edit    func(*Config)
		setting Setting
	}{
		{"negative events", func(c *Config) { c.Events = -3 }, SettingEvents},
		{"too many events", func(c *Config) { c.Events = MaxEvents + 1 }, SettingEvents},
		{"negative over", func(c *Config) { c.Over = -time.Second }, SettingOver},
		{"too long over", func(c *Config) { c.Over = MaxOver + 1 }, SettingOver},
		{"too much concurrency", func(c *Config) { c.Concurrency = MaxConcurrency + 1 }, SettingConcurrency},
		{"too long a settle", func(c *Config) { c.SettleLimit = MaxSettle + 1 }, SettingSettleLimit},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			tc.edit(&cfg)
			_, err := cfg.resolve()
			var le *LimitError
			if !errors.Is(err, ErrConfig) || !errors.As(err, &le) || le.Setting != tc.setting {
				t.Errorf("got %v, want ErrConfig with a LimitError for %s", err, tc.setting)
			}
		})
	}
	cfg, err := base.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Events != DefaultEvents || cfg.Over != DefaultOver || cfg.Seed != DefaultSeed || cfg.Concurrency != DefaultConcurrency {
		t.Errorf("zero fields did not take the defaults: events %d, over %s, seed %d, concurrency %d", cfg.Events, cfg.Over, cfg.Seed, cfg.Concurrency)
	}
}

// TestCheckDedupID: the longest id an event carries is taken, one byte
// more is refused with the figures.
func TestCheckDedupID(t *testing.T) {
	if err := CheckDedupID(strings.Repeat("a", MaxDedupID)); err != nil {
		t.Fatalf("an id of %d bytes refused: %v", MaxDedupID, err)
	}
	err := CheckIncoming(&Incoming{ID: strings.Repeat("a", MaxDedupID+1)})
	var le *EventLimitError
	if !errors.As(err, &le) || le.Len != MaxDedupID+1 || le.Max != MaxDedupID {
		t.Fatalf("got %v, want an *EventLimitError with the figures", err)
	}
}
