package simulator

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// ErrNoCertificate is returned by TrustPEM for data that holds no PEM
// certificate.
var ErrNoCertificate = errors.New("no PEM certificate (expected -----BEGIN CERTIFICATE-----)")

// TrustPEM is the TLS settings of an HTTPS target whose certificate is
// signed by one in pemData (a self-signed one, or a private CA's), trusted
// besides the system's.
func TrustPEM(pemData []byte) (*tls.Config, error) {
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pemData) {
		return nil, ErrNoCertificate
	}
	return &tls.Config{RootCAs: pool}, nil
}
