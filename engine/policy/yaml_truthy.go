package policy

// truthy_keys lets: the JSON payload of a value, and a pre-scan that rules
// out texts in which no key can be written, so that they are not parsed.

import (
	"strings"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// payload is v when it is an object or array, the value a string holds when
// its trimmed text is a JSON object or array, else nil (as chatlint.json_payload).
func payload(v ast.Value) ast.Value {
	if v == nil {
		return nil
	}
	t, _ := jsonPayload(rego.BuiltinContext{}, ast.NewTerm(v))
	if t == nil {
		return nil
	}
	return t.Value
}

// mayHoldKey reports whether JSON text s may have a member named by one of
// keys (lower-case), compared as truthy_keys compares them (any case). It
// is false only when no key is written in s byte for byte in any ASCII case
// and s has no escape (\\u) or non-ASCII byte through which one could be
// written otherwise, so a text it rules out has no such member whatever it
// holds.
func mayHoldKey(s string, keys []string) bool {
	return mayHoldKeyTable(s, keys, keyStops(keys))
}

// keyStops marks the bytes at which mayHoldKeyTable looks closer: the first
// letter of each key in both cases, a backslash and every non-ASCII byte.
// A key that is not ASCII marks every byte (nothing is ruled out).
func keyStops(keys []string) *[256]bool {
	var stop [256]bool
	for c := 0x80; c < 256; c++ {
		stop[c] = true
	}
	stop['\\'] = true
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				for c := range stop {
					stop[c] = true
				}
				return &stop
			}
		}
		if k == "" {
			continue
		}
		c := k[0]
		stop[c] = true
		if 'a' <= c && c <= 'z' {
			stop[c-32] = true
		}
	}
	return &stop
}

func mayHoldKeyTable(s string, keys []string, stop *[256]bool) bool {
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return true
			}
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !stop[c] {
			continue
		}
		if c >= utf8.RuneSelf || (c == '\\' && i+1 < len(s) && s[i+1] == 'u') {
			return true
		}
		lc := c | 0x20
		for _, k := range keys {
			if len(k) > 0 && lc == k[0] && len(s)-i >= len(k) && strings.EqualFold(s[i:i+len(k)], k) {
				return true
			}
		}
	}
	return false
}
