package advice

import (
	"errors"
	"fmt"
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/simulator/capture"
)

// NotADelivery explains a capture c that is not a webhook delivery: a
// request other than a POST that carries no provider's signature header
// (a health check, a page load), read from --request request (--entry
// entry of it, when entry is above 0); for a HAR file, whose bytes are
// data, it lists the POST entries to choose from with --entry.
func NotADelivery(request string, entry int, c capture.Request, data []byte) error {
	what := "--request " + request
	if entry > 0 {
		what = fmt.Sprintf("%s --entry %d", what, entry)
	}
	msg := fmt.Sprintf("%s: this is a %s request without a signature header of any provider (%s), not a webhook delivery, which is a POST",
		what, c.Method, strings.Join(policies.WireNames(), ", "))
	if c.Format != capture.FormatHAR {
		return errors.New(msg)
	}
	posts, err := capture.HAREntries(data, true)
	switch {
	case err != nil:
		return errors.New(msg)
	case len(posts) == 0:
		return fmt.Errorf("%s; the HAR file has no POST entry", msg)
	}
	return fmt.Errorf("%s; the POST entries (choose one with --entry N):\n  %s", msg, strings.Join(capture.ListEntries(posts, 10), "\n  "))
}
