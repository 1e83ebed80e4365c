package policies

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"
)

func hmacSHA256(secret string, parts ...[]byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}

func hmacHex(secret string, parts ...[]byte) string {
	return hex.EncodeToString(hmacSHA256(secret, parts...))
}

func hmacBase64(secret string, parts ...[]byte) string {
	return base64.StdEncoding.EncodeToString(hmacSHA256(secret, parts...))
}

// checkTimestamp rejects a signature timestamp more than tolerance away from
// now, as the providers' own verifiers do.
// ErrStaleSignature is returned, wrapped with ErrBadSignature, by
// Wire.Verify for a signature whose timestamp is further from now than the
// scheme's tolerance: a replay, or a delivery held back too long.
var ErrStaleSignature = errors.New("stale")

func checkTimestamp(ts string, now time.Time, tolerance time.Duration) error {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: timestamp %q is not a number", ErrBadSignature, ts)
	}
	d := now.Sub(time.Unix(sec, 0))
	if d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: %w: timestamp is %s away from now (tolerance %s)", ErrBadSignature, ErrStaleSignature, FormatDuration(d), FormatDuration(tolerance))
	}
	return nil
}

func equalSig(got, want string) bool { return hmac.Equal([]byte(got), []byte(want)) }
