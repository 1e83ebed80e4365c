package policies

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// hmacPools keeps, per secret, keyed HMAC-SHA256 states to reuse: a run
// signs every attempt with one secret, and keying a new HMAC costs two
// hashes and five allocations each time. At most maxHMACPools secrets are
// kept (a run has one or two, and an attack's wrong one); others get a
// fresh HMAC every time.
var (
	hmacPools     sync.Map // secret → *sync.Pool of hash.Hash
	hmacPoolCount atomic.Int32
)

const maxHMACPools = 64

func getHMAC(secret string) (hash.Hash, *sync.Pool) {
	if p, ok := hmacPools.Load(secret); ok {
		pool := p.(*sync.Pool)
		return pool.Get().(hash.Hash), pool
	}
	if hmacPoolCount.Load() >= maxHMACPools {
		return hmac.New(sha256.New, []byte(secret)), nil
	}
	p, loaded := hmacPools.LoadOrStore(secret, &sync.Pool{New: func() any { return hmac.New(sha256.New, []byte(secret)) }})
	if !loaded {
		hmacPoolCount.Add(1)
	}
	pool := p.(*sync.Pool)
	return pool.Get().(hash.Hash), pool
}

// appendHMAC appends HMAC-SHA256(secret, a || b || c) to dst, with no copy
// of the parts.
func appendHMAC(dst []byte, secret string, a, b, c []byte) []byte {
	m, pool := getHMAC(secret)
	m.Reset()
	m.Write(a)
	m.Write(b)
	m.Write(c)
	dst = m.Sum(dst)
	if pool != nil {
		pool.Put(m)
	}
	return dst
}

// appendHMACHex appends the HMAC's hex digits to dst.
func appendHMACHex(dst []byte, secret string, a, b, c []byte) []byte {
	var sum [sha256.Size]byte
	return hex.AppendEncode(dst, appendHMAC(sum[:0], secret, a, b, c))
}

// appendHMACBase64 appends the HMAC in standard base64 to dst.
func appendHMACBase64(dst []byte, secret string, a, b, c []byte) []byte {
	var sum [sha256.Size]byte
	return base64.StdEncoding.AppendEncode(dst, appendHMAC(sum[:0], secret, a, b, c))
}

// dot is the separator Stripe signs between the timestamp and the body.
var dot = []byte(".")

func hmacHex(secret string, parts ...[]byte) string {
	var p [3][]byte
	copy(p[:], parts)
	return string(appendHMACHex(nil, secret, p[0], p[1], p[2]))
}

func hmacBase64(secret string, parts ...[]byte) string {
	var p [3][]byte
	copy(p[:], parts)
	return string(appendHMACBase64(nil, secret, p[0], p[1], p[2]))
}

// unixSeconds appends t's Unix seconds, as the schemes' timestamps carry
// them.
func unixSeconds(dst []byte, t time.Time) []byte { return strconv.AppendInt(dst, t.Unix(), 10) }

// ErrStaleSignature is returned, wrapped with ErrBadSignature, by
// Wire.Verify for a signature whose timestamp is further from now than the
// scheme's tolerance: a replay, or a delivery held back too long.
var ErrStaleSignature = errors.New("stale")

// checkTimestamp rejects a signature timestamp more than tolerance away from
// now, as the providers' own verifiers do.
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
