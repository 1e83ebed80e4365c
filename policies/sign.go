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
// fresh HMAC every time. lastHMAC is the pool used last, found without
// hashing the secret.
var (
	hmacPools     sync.Map // secret → *hmacPool
	hmacPoolCount atomic.Int32
	lastHMAC      atomic.Pointer[hmacPool]
)

const maxHMACPools = 64

// hmacPool is the pool of one secret's keyed states.
type hmacPool struct {
	secret string
	sync.Pool
}

// keyedHMAC is a keyed HMAC-SHA256 state and a scratch buffer: the short
// parts of a message are copied there before they are hashed, and the sum
// is made there, so that the callers' buffers stay on their stacks (a
// slice handed to hash.Hash's methods escapes to the heap).
type keyedHMAC struct {
	h   hash.Hash
	buf [128]byte
}

func getHMAC(secret string) (*keyedHMAC, *hmacPool) {
	if p := lastHMAC.Load(); p != nil && p.secret == secret {
		return p.Get().(*keyedHMAC), p
	}
	if p, ok := hmacPools.Load(secret); ok {
		pool := p.(*hmacPool)
		lastHMAC.Store(pool)
		return pool.Get().(*keyedHMAC), pool
	}
	if hmacPoolCount.Load() >= maxHMACPools {
		return newKeyedHMAC(secret), nil
	}
	pool := &hmacPool{secret: secret}
	pool.New = func() any { return newKeyedHMAC(secret) }
	p, loaded := hmacPools.LoadOrStore(secret, pool)
	if !loaded {
		hmacPoolCount.Add(1)
	}
	pool = p.(*hmacPool)
	lastHMAC.Store(pool)
	return pool.Get().(*keyedHMAC), pool
}

func newKeyedHMAC(secret string) *keyedHMAC {
	return &keyedHMAC{h: hmac.New(sha256.New, []byte(secret))}
}

// writeCopied hashes p through the scratch buffer.
func (k *keyedHMAC) writeCopied(p []byte) {
	for len(p) > 0 {
		n := copy(k.buf[:], p)
		k.h.Write(k.buf[:n])
		p = p[n:]
	}
}

// appendHMAC appends HMAC-SHA256(secret, a || b || c) to dst. a and b
// (a timestamp, a separator) are copied before they are hashed, and c (a
// body, already on the heap) is hashed where it is.
func appendHMAC(dst []byte, secret string, a, b, c []byte) []byte {
	k, pool := getHMAC(secret)
	k.h.Reset()
	k.writeCopied(a)
	k.writeCopied(b)
	k.h.Write(c)
	dst = append(dst, k.h.Sum(k.buf[:0])...)
	if pool != nil {
		pool.Put(k)
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
