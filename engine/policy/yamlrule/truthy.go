package yamlrule

// truthy_keys lets: the JSON payload of a value, and a pre-scan that rules
// out texts in which no key can be written, so that they are not parsed.

import (
	"strings"
	"unicode/utf8"

	"github.com/chatlint/chatlint/engine/policy/builtins"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// payload is v when it is an object or array, the value a string holds when
// its trimmed text is a JSON object or array, else nil (as chatlint.json_payload).
func payload(v ast.Value) ast.Value {
	if v == nil {
		return nil
	}
	t, _ := builtins.JSONPayload(rego.BuiltinContext{}, ast.NewTerm(v))
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
// holds. When every key is plain (printable ASCII that JSON writes as it
// is), a key counts as written only between two quotes, as a member name
// is: a text whose words merely contain the key's letters is ruled out.
func mayHoldKey(s string, keys []string) bool {
	return mayHoldKeyTable(s, keys, keyStops(keys))
}

// keyStopTable marks the bytes at which mayHoldKeyTable looks closer.
type keyStopTable struct {
	stop   [256]bool
	quoted bool // every key is plain: look at quotes rather than first letters
}

// plainKey reports whether JSON writes k's bytes as they are in a string:
// printable ASCII other than the quote, the backslash and the slash (which
// may be written escaped).
func plainKey(k string) bool {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '/' {
			return false
		}
	}
	return true
}

// keyStops marks the bytes at which mayHoldKeyTable looks closer: every
// non-ASCII byte, a backslash, and the quote when every key is plain, else
// the first letter of each key in both cases. A key that is not ASCII marks
// every byte (nothing is ruled out).
func keyStops(keys []string) *keyStopTable {
	t := &keyStopTable{quoted: true}
	for _, k := range keys {
		t.quoted = t.quoted && plainKey(k)
	}
	stop := &t.stop
	for c := 0x80; c < 256; c++ {
		stop[c] = true
	}
	stop['\\'] = true
	if t.quoted {
		stop['"'] = true
		return t
	}
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				for c := range stop {
					stop[c] = true
				}
				return t
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
	return t
}

func mayHoldKeyTable(s string, keys []string, t *keyStopTable) bool {
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if k[i] >= utf8.RuneSelf {
				return true
			}
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !t.stop[c] {
			continue
		}
		if c >= utf8.RuneSelf || (c == '\\' && i+1 < len(s) && s[i+1] == 'u') {
			return true
		}
		if t.quoted {
			if c != '"' {
				continue
			}
			for _, k := range keys { // "key" as a member name is written
				if e := i + 1 + len(k); e < len(s) && s[e] == '"' && strings.EqualFold(s[i+1:e], k) {
					return true
				}
			}
			continue
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
