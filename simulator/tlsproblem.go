package simulator

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
)

// TLSProblem is what failed when a connection to an https:// target broke
// in its TLS handshake.
type TLSProblem string

// The TLS problems an attempt can meet.
const (
	// TLSUnknownAuthority: the certificate is signed by an authority this
	// machine does not trust (a self-signed or private CA).
	TLSUnknownAuthority TLSProblem = "unknown_authority"
	// TLSWrongName: the certificate is not for the host in the URL.
	TLSWrongName TLSProblem = "wrong_name"
	// TLSInvalid: the certificate is expired, not yet valid, or otherwise
	// refused.
	TLSInvalid TLSProblem = "invalid_certificate"
	// TLSHandshake: the handshake failed for another reason (the server
	// does not speak TLS there, no common version or cipher).
	TLSHandshake TLSProblem = "handshake"
)

// tlsProblemOf says what TLS problem err is, "" when it is none.
func tlsProblemOf(err error) TLSProblem {
	if err == nil {
		return ""
	}
	var ua x509.UnknownAuthorityError
	var host x509.HostnameError
	var inv x509.CertificateInvalidError
	var verr *tls.CertificateVerificationError
	var rec tls.RecordHeaderError
	var alert tls.AlertError
	switch {
	case errors.As(err, &ua):
		return TLSUnknownAuthority
	case errors.As(err, &host):
		return TLSWrongName
	case errors.As(err, &inv), errors.As(err, &verr):
		return TLSInvalid
	case errors.As(err, &rec), errors.As(err, &alert):
		return TLSHandshake
	}
	return ""
}
