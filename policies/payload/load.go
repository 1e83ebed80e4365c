package payload

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/retrysim/retrysim/policies"
	"github.com/retrysim/retrysim/policies/boundedfile"
)

// Limits on what Load reads, far above real payloads (GitHub caps its own
// at 25 MB).
const (
	MaxFileSize = 32 << 20
	MaxFiles    = 1000
)

// Set is one provider's payloads: the run's events take them in turn,
// event i the template i mod len.
type Set struct {
	templates []*Template
}

// NewSet makes a Set of templates, which must not be empty.
func NewSet(templates ...*Template) *Set { return &Set{templates: templates} }

// Templates lists the set's templates, in the order events take them.
func (s *Set) Templates() []*Template { return s.templates }

func (s *Set) of(seq int) *Template { return s.templates[seq%len(s.templates)] }

// Type is the event type of event seq, "" when its payload says none.
func (s *Set) Type(seq int) string { return s.of(seq).Type }

// Body makes the body of ev, in a run of seed, from its template.
func (s *Set) Body(ev policies.Event, seed uint64) ([]byte, string) {
	return s.of(ev.Seq).Body(ev, seed)
}

// Source is one payload given: a file or a directory of them, for a
// provider ("" for the only one).
type Source struct {
	Provider string
	Path     string
}

// ParseSource reads [provider=]PATH. The text before the first = is a
// provider only when it names one; otherwise the whole is a path.
func ParseSource(s string) Source {
	if prov, path, ok := strings.Cut(s, "="); ok {
		if _, known := policies.WireFor(strings.ToLower(prov)); known && path != "" {
			return Source{Provider: strings.ToLower(prov), Path: path}
		}
	}
	return Source{Path: s}
}

// Load reads the payload files and directories of paths for wire into a
// Set. A directory gives every *.json file under it, in name order; for a
// provider that sends the event type in a header (GitHub, Shopify, GitLab)
// the file's path in the directory without .json names the type
// (orders/paid.json is orders/paid). typ is the type of a file that says
// none. An override applies to the files that have its field, and one that
// none has is an error. Every problem of every file is reported.
func Load(wire policies.Wire, paths []string, typ string, overrides []Override) (*Set, error) {
	_, headerType := policies.TypeHeader(wire)
	type file struct{ name, typ string }
	var files []file
	var errs []error
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			errs = append(errs, &Error{File: p, Err: fmt.Errorf("%w: %w", ErrInvalid, unwrapPath(err))})
			continue
		}
		if !info.IsDir() {
			files = append(files, file{name: p, typ: typ})
			continue
		}
		var found []file
		err = filepath.WalkDir(p, func(name string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.EqualFold(filepath.Ext(name), ".json") {
				return nil
			}
			if len(found) == MaxFiles {
				return fmt.Errorf("%w: more than %d payload files", ErrInvalid, MaxFiles)
			}
			ft := typ
			if headerType {
				rel, _ := filepath.Rel(p, name)
				ft = filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
				if typ != "" && ft != typ {
					return &Error{File: name, Err: fmt.Errorf("%w: the file's name says the event type is %s, and the type given is %s: drop one", ErrInvalid, ft, typ)}
				}
			}
			found = append(found, file{name: name, typ: ft})
			return nil
		})
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				err = &Error{File: p, Err: fmt.Errorf("%w: %w", ErrInvalid, unwrapPath(err))}
			}
			errs = append(errs, err)
			continue
		}
		if len(found) == 0 {
			errs = append(errs, &Error{File: p, Err: fmt.Errorf("%w: the directory holds no .json file", ErrInvalid)})
		}
		files = append(files, found...)
	}
	mine := slices.DeleteFunc(slices.Clone(overrides), func(o Override) bool { return o.Provider != "" && o.Provider != wire.Name() })
	applied := make([]bool, len(mine))
	var templates []*Template
	var firstSpans []span // the first file's, to suggest a field from
	for _, f := range files {
		data, err := readCapped(f.name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if firstSpans == nil {
			firstSpans, _ = scan(f.name, data)
		}
		// An override applies to the files that have its field.
		var these []Override
		for i, o := range mine {
			if has(data, o.Path) {
				these, applied[i] = append(these, o), true
			}
		}
		if f.typ != "" {
			if err := CheckType(f.typ); err != nil {
				errs = append(errs, &Error{File: f.name, Err: err})
				continue
			}
		}
		t, err := Parse(wire, f.name, data, f.typ, these)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		templates = append(templates, t)
	}
	if len(errs) == 0 {
		for i, o := range mine {
			if !applied[i] {
				names := make([]string, len(files))
				for j, f := range files {
					names[j] = f.name
				}
				errs = append(errs, fmt.Errorf("%w %s: no field %s in %s%s", ErrBadOverride, o.Path, o.Path, strings.Join(names, ", "), nearest(o.Path, firstSpans)))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return NewSet(templates...), nil
}

// has says a payload has the field at path (false when it is not JSON:
// Parse says why).
func has(data []byte, path string) bool {
	spans, err := scan("", data)
	if err != nil {
		return false
	}
	for _, s := range spans {
		if s.path == path {
			return true
		}
	}
	return false
}

// readCapped reads a payload file of at most MaxFileSize bytes
// (boundedfile.Read), saying a problem as this package's *Error.
func readCapped(name string) ([]byte, error) {
	data, err := boundedfile.Read(name, nil, MaxFileSize, "")
	var tl *boundedfile.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, &Error{File: name, Err: fmt.Errorf("%w: larger than %d MiB", ErrInvalid, MaxFileSize>>20)}
	case err != nil:
		return nil, &Error{File: name, Err: fmt.Errorf("%w: %w", ErrInvalid, unwrapPath(err))}
	}
	return data, nil
}

// unwrapPath drops the path an *fs.PathError repeats.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
