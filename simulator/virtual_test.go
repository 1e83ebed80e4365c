package simulator

import (
	"testing"
	"time"
)

// virtual's shortcut for a plain UTC start must give the very Time that
// adding the offset to the start gives, for every kind of start.
func TestVirtualTimeIsStartPlusOffset(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		berlin = time.FixedZone("CET", 3600)
	}
	for _, start := range []time.Time{
		DefaultStart(),
		time.Date(2026, 3, 1, 23, 59, 59, 999_999_999, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 500, time.UTC), // before the Unix epoch
		time.Date(2026, 3, 29, 1, 30, 0, 0, berlin),        // an hour before a DST change
		time.Now(), // a monotonic reading
	} {
		e := &engine{cfg: Config{Start: start}}
		e.unixStart, e.startSec, e.startNsec = plainUTC(start), start.Unix(), int64(start.Nanosecond())
		for _, at := range []int64{0, 1, 999_999_999, 1_000_000_001, int64(3 * 24 * time.Hour), int64(90*24*time.Hour) + 7} {
			want := start.Add(time.Duration(at))
			if got := e.virtual(at); got != want {
				t.Errorf("start %v + %d ns: virtual %v (%#v), want %v", start, at, got, e.unixStart, want)
			}
		}
	}
	if !plainUTC(DefaultStart()) {
		t.Error("DefaultStart should take virtual's shortcut")
	}
}
