package payload

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/retrysim/retrysim/policies"
)

// Placeholders, the names ${…} takes.
const (
	PlaceholderSeq       = "seq"
	PlaceholderID        = "id"
	PlaceholderTime      = "time"
	PlaceholderUnix      = "unix"
	PlaceholderObject    = "object"
	PlaceholderObjectNum = "objectnum"
	PlaceholderPick      = "pick"
)

// placeholderNames lists the names, for messages.
var placeholderNames = []string{PlaceholderSeq, PlaceholderID, PlaceholderTime, PlaceholderUnix, PlaceholderObject, PlaceholderObjectNum, PlaceholderPick}

// rawPrefix before a placeholder's name writes its value as JSON rather
// than as text in a string.
const rawPrefix = "raw"

// placeholder is one ${…} of a payload: what it writes for an event.
type placeholder struct {
	name string
	// raw says the value is written as JSON in place of the whole string.
	raw bool
	// items are pick's choices.
	items []string
	// salt tells one pick of a file from another, so that each picks on
	// its own.
	salt uint64
}

// part is a piece of a string with placeholders: bytes as the file has
// them (JSON-escaped), or a placeholder.
type part struct {
	lit []byte
	ph  *placeholder
}

// parseParts splits raw, the bytes of a JSON string between its quotes,
// into literal bytes and placeholders. $${ is a literal ${. A placeholder's
// salt comes from *n, which counts the placeholders of the file. An error
// carries the offset in raw where it happened.
func parseParts(raw []byte, n *int) ([]part, int, error) {
	var parts []part
	lit := []byte{}
	for i := 0; i < len(raw); {
		switch {
		case bytes.HasPrefix(raw[i:], []byte("$${")):
			lit = append(lit, "${"...)
			i += 3
		case bytes.HasPrefix(raw[i:], []byte("${")):
			end := bytes.IndexByte(raw[i:], '}')
			if end < 0 {
				return nil, i, errors.New("a placeholder ${… has no closing }")
			}
			*n++
			ph, err := parsePlaceholder(raw[i+2:i+end], uint64(*n))
			if err != nil {
				return nil, i, err
			}
			if len(lit) > 0 {
				parts = append(parts, part{lit: lit})
				lit = []byte{}
			}
			parts = append(parts, part{ph: ph})
			i += end + 1
		default:
			lit = append(lit, raw[i])
			i++
		}
	}
	if len(lit) > 0 {
		parts = append(parts, part{lit: lit})
	}
	for _, p := range parts {
		if p.ph != nil && p.ph.raw && len(parts) > 1 {
			return nil, 0, fmt.Errorf("${%s %s} writes a JSON value in place of the whole string: the string must hold nothing else", rawPrefix, p.ph.name)
		}
	}
	return parts, 0, nil
}

// parsePlaceholder reads what is between ${ and }, still JSON-escaped.
func parsePlaceholder(escaped []byte, salt uint64) (*placeholder, error) {
	var text string
	if err := json.Unmarshal(append(append([]byte{'"'}, escaped...), '"'), &text); err != nil {
		return nil, fmt.Errorf("placeholder ${%s}: %w", escaped, err)
	}
	words, err := splitWords(text)
	if err != nil {
		return nil, fmt.Errorf("placeholder ${%s}: %w", text, err)
	}
	ph := &placeholder{salt: salt}
	if len(words) > 0 && words[0] == rawPrefix {
		ph.raw, words = true, words[1:]
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("placeholder ${%s} names nothing (valid: %s)", text, strings.Join(placeholderNames, ", "))
	}
	ph.name = words[0]
	args := words[1:]
	switch ph.name {
	case PlaceholderPick:
		if len(args) == 0 {
			return nil, fmt.Errorf("placeholder ${%s} picks from nothing: list the values, e.g. ${pick cus_A cus_B}", text)
		}
		ph.items = args
		if ph.raw {
			for _, it := range args {
				if !json.Valid([]byte(it)) {
					return nil, fmt.Errorf("placeholder ${%s}: %q is not a JSON value, and raw writes the value as JSON (drop raw to write it as text)", text, it)
				}
			}
		}
		return ph, nil
	case PlaceholderSeq, PlaceholderUnix, PlaceholderObjectNum, PlaceholderID, PlaceholderTime, PlaceholderObject:
		if len(args) > 0 {
			return nil, fmt.Errorf("placeholder ${%s}: %s takes no arguments", text, ph.name)
		}
		if ph.raw && !numeric(ph.name) {
			return nil, fmt.Errorf("placeholder ${%s}: %s is text, not a JSON value: write ${%s} for a string", text, ph.name, ph.name)
		}
		return ph, nil
	}
	return nil, fmt.Errorf("unknown placeholder ${%s} (valid: %s)", text, strings.Join(placeholderNames, ", "))
}

// numeric says a placeholder's value is always a number.
func numeric(name string) bool {
	return name == PlaceholderSeq || name == PlaceholderUnix || name == PlaceholderObjectNum
}

// splitWords splits s at spaces; a word in single quotes may hold spaces.
func splitWords(s string) ([]string, error) {
	var words []string
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		if s[0] == '\'' {
			end := strings.IndexByte(s[1:], '\'')
			if end < 0 {
				return nil, errors.New("a quoted value has no closing '")
			}
			words = append(words, s[1:1+end])
			s = s[2+end:]
			continue
		}
		end := strings.IndexAny(s, " \t\r\n")
		if end < 0 {
			end = len(s)
		}
		words = append(words, s[:end])
		s = s[end:]
	}
	return words, nil
}

// value is what the placeholder writes for event ev in a run of seed, as
// text (or JSON, for raw).
func (ph *placeholder) value(ev *policies.Event, seed uint64) string {
	switch ph.name {
	case PlaceholderSeq:
		return strconv.Itoa(ev.Seq + 1)
	case PlaceholderID:
		return ev.ID
	case PlaceholderTime:
		return ev.Created.UTC().Format(time.RFC3339)
	case PlaceholderUnix:
		return strconv.FormatInt(ev.Created.Unix(), 10)
	case PlaceholderObject:
		return objectOf(ev)
	case PlaceholderObjectNum:
		h := fnv.New64a()
		h.Write([]byte(objectOf(ev)))
		return strconv.FormatUint(1_000_000_000_000+h.Sum64()%9_000_000_000_000, 10)
	case PlaceholderPick:
		r := policies.Key(seed, uint64(ev.Seq), 0x9a1c_0000_0000^ph.salt)
		return ph.items[r.IntN(len(ph.items))]
	}
	return ""
}

// objectOf names what ev is about: its object, or, for an event about an
// object of its own (a real delivery), its id.
func objectOf(ev *policies.Event) string {
	if ev.Object != "" {
		return ev.Object
	}
	return ev.ID
}

// appendParts writes a string made of parts for ev, with its quotes, or a
// raw placeholder's value.
func appendParts(dst []byte, parts []part, ev *policies.Event, seed uint64) []byte {
	if len(parts) == 1 && parts[0].ph != nil && parts[0].ph.raw {
		return append(dst, parts[0].ph.value(ev, seed)...)
	}
	dst = append(dst, '"')
	for _, p := range parts {
		if p.ph == nil {
			dst = append(dst, p.lit...)
			continue
		}
		dst = appendEscaped(dst, p.ph.value(ev, seed))
	}
	return append(dst, '"')
}

// appendEscaped appends s escaped for a JSON string, as the providers
// escape: quotes, backslashes and control characters; <, > and & as they
// are.
func appendEscaped(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		case c < utf8.RuneSelf:
			dst = append(dst, c)
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, `\ufffd`...)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		i++
	}
	return dst
}
