package oracle

import (
	"fmt"
	"strconv"
)

// MaxTimes is the largest count an oracle may report for one event: far
// above any real handler's (a billion times one delivery), and far below
// where sums overflow. A larger count is refused, not believed.
const MaxTimes = 1_000_000_000

// parseTimes reads a count from an answer's number: a plain integer from
// 0 to MaxTimes.
func parseTimes(s string) (int, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is not a whole number of times", quoteNumber(s))
	}
	return checkTimes(n)
}

// checkTimes refuses a count that is not plausible.
func checkTimes(n int64) (int, error) {
	if n < 0 || n > MaxTimes {
		return 0, fmt.Errorf("%d is not a plausible number of times (0 to %d)", n, MaxTimes)
	}
	return int(n), nil
}

// quoteNumber shows at most 40 characters of a number from an answer.
func quoteNumber(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
