package simulator

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/retrysim/retrysim/policies/boundedfile"
)

// MaxCAFile caps the file TrustFile reads: a few kilobytes in use, so a
// larger one (or /dev/zero) is a mistake.
const MaxCAFile = 4 << 20

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

// TrustFile is TrustPEM of the PEM file at path, read whole and refused
// when larger than MaxCAFile (boundedfile.Read). A file that holds no
// certificate is an error naming it: "PATH holds no PEM certificate …"
// (errors.Is ErrNoCertificate).
func TrustFile(path string) (*tls.Config, error) {
	data, err := boundedfile.Read(path, nil, MaxCAFile, "a PEM certificate file")
	if err != nil {
		return nil, err
	}
	cfg, err := TrustPEM(data)
	if err != nil {
		return nil, fmt.Errorf("%s holds %w", path, err)
	}
	return cfg, nil
}
