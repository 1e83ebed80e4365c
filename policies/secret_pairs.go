package policies

import (
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// SecretPairError is a problem with the Index-th (from 1) of the
// provider=value pairs ParseSecrets read. Its message never repeats the
// value.
type SecretPairError struct {
	Index int
	Err   error
}

func (e *SecretPairError) Error() string { return fmt.Sprintf("secret #%d: %v", e.Index, e.Err) }

func (e *SecretPairError) Unwrap() error { return e.Err }

// ParseSecrets reads provider=value pairs into secrets by provider: each
// provider a wire format's name, each value one its libraries take. The
// first bad pair is returned as a *SecretPairError.
func ParseSecrets(pairs []string) (map[string]string, error) {
	out := map[string]string{}
	for i, s := range pairs {
		prov, val, ok := strings.Cut(s, "=")
		prov = strings.ToLower(strings.TrimSpace(prov))
		var err error
		switch _, known := WireFor(prov); {
		case !ok || prov == "" || val == "":
			err = errors.New("expected provider=value, e.g. stripe=whsec_…")
		case !known:
			err = fmt.Errorf("unknown provider %q (valid: %s)", prov, joinNames(WireNames()))
		default:
			err = CheckSecret(prov, val)
		}
		if err != nil {
			return nil, &SecretPairError{Index: i + 1, Err: err}
		}
		out[prov] = val
	}
	return out, nil
}

// DecodeSecrets reads a config file's "secrets:" section, a map of
// provider: secret, from n; file names the file in problems. Every problem
// is returned, each naming the file, the line and the key, never the
// secret.
func DecodeSecrets(file string, n *yaml.Node) (map[string]string, []error) {
	if n.Kind != yaml.MappingNode {
		return nil, []error{fmt.Errorf("%s:%d: secrets: expected a map of provider: secret", file, n.Line)}
	}
	out := map[string]string{}
	var errs []error
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		prov := strings.ToLower(strings.TrimSpace(k.Value))
		if _, ok := WireFor(prov); !ok {
			errs = append(errs, fmt.Errorf("%s:%d: secrets.%s: unknown provider %q (valid: %s)", file, k.Line, k.Value, k.Value, joinNames(WireNames())))
			continue
		}
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			errs = append(errs, fmt.Errorf("%s:%d: secrets.%s: expected the secret as a string (value not shown)", file, v.Line, k.Value))
			continue
		}
		out[prov] = v.Value
	}
	return out, errs
}
