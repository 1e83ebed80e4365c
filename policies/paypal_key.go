package policies

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"sync"
)

// paypalKey is the RSA key pair retrysim signs PayPal deliveries with, in
// place of PayPal's certificate. It is derived from a fixed seed, so it is
// the same in every run and on every machine: a handler can be configured
// with its public key once. It is not a secret and protects nothing.
var paypalKey = sync.OnceValue(func() *rsa.PrivateKey {
	r := NewRand(0x9a79a1, 2048)
	e := big.NewInt(65537)
	one := big.NewInt(1)
	var primes [2]*big.Int
	for i := range primes {
		primes[i] = derivePrime(&r, 1024, e)
	}
	p, q := primes[0], primes[1]
	n := new(big.Int).Mul(p, q)
	phi := new(big.Int).Mul(new(big.Int).Sub(p, one), new(big.Int).Sub(q, one))
	d := new(big.Int).ModInverse(e, phi)
	k := &rsa.PrivateKey{PublicKey: rsa.PublicKey{N: n, E: 65537}, D: d, Primes: []*big.Int{p, q}}
	k.Precompute()
	if err := k.Validate(); err != nil {
		panic("policies: derived PayPal key: " + err.Error())
	}
	return k
})

// derivePrime returns a prime of bits bits, drawn from r, with p-1 coprime
// to e. crypto/rand's generators cannot be seeded, so the search is here.
func derivePrime(r *Rand, bits int, e *big.Int) *big.Int {
	b := make([]byte, bits/8)
	r.fill(b)
	b[0] |= 0xc0 // two top bits set: the product has exactly 2·bits bits
	b[len(b)-1] |= 1
	p := new(big.Int).SetBytes(b)
	two := big.NewInt(2)
	pm1, g := new(big.Int), new(big.Int)
	for {
		if p.ProbablyPrime(32) {
			pm1.Sub(p, big.NewInt(1))
			if g.GCD(nil, nil, pm1, e).Cmp(big.NewInt(1)) == 0 {
				return p
			}
		}
		p.Add(p, two)
	}
}

// PayPalPublicKeyPEM is the public key of the key pair retrysim signs PayPal
// deliveries with, as a PEM block.
func PayPalPublicKeyPEM() string {
	der, err := x509.MarshalPKIXPublicKey(&paypalKey().PublicKey)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}
