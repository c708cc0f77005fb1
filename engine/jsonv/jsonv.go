// Package jsonv is an order-preserving JSON value: objects keep their keys in
// the order they were read, and numbers keep their text. Commands that change
// records (fix, convert) edit these values so that a changed record keeps its
// other fields, their order and their numbers exactly.
package jsonv

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf16"
)

// Value is one of: nil (null), bool, json.Number, string, []Value or *Object.
type Value = any

// Member is one key and its value.
type Member struct {
	Key   string
	Value Value
}

// Object is a JSON object with its keys in order. Duplicate keys are kept as
// read; Get returns the last one, as encoding/json would.
type Object struct {
	Members []Member
}

// Get returns the value of key.
func (o *Object) Get(key string) (Value, bool) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Key == key {
			return o.Members[i].Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key where it stands, or appends it.
func (o *Object) Set(key string, v Value) {
	for i := len(o.Members) - 1; i >= 0; i-- {
		if o.Members[i].Key == key {
			o.Members[i].Value = v
			return
		}
	}
	o.Members = append(o.Members, Member{key, v})
}

// Delete removes every member named key.
func (o *Object) Delete(key string) {
	kept := o.Members[:0]
	for _, m := range o.Members {
		if m.Key != key {
			kept = append(kept, m)
		}
	}
	o.Members = kept
}

func decodeValue(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := &Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.Members = append(o.Members, Member{kt.(string), v})
			}
			_, err := dec.Token()
			return o, err
		case '[':
			a := []Value{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				a = append(a, v)
			}
			_, err := dec.Token()
			return a, err
		}
		return nil, fmt.Errorf("jsonv: unexpected %v", t)
	default:
		return t, nil // nil, bool, json.Number or string
	}
}

// Style chooses separators and escaping.
type Style int

const (
	// Compact writes `,` and `:` with no spaces, escaping as encoding/json does
	// minus its HTML escaping: the usual shape of a JSONL line.
	Compact Style = iota
	// Python writes `, ` and `: ` and leaves non-ASCII raw, as Python's
	// json.dumps(ensure_ascii=False) does.
	Python
	// PythonASCII is Python with every character outside printable ASCII
	// escaped as \uXXXX (a UTF-16 pair above U+FFFF), as Python's
	// json.dumps does by default (ensure_ascii=True).
	PythonASCII
)

// Marshal encodes v in the given style.
func Marshal(v Value, style Style) []byte {
	var b bytes.Buffer
	Append(&b, v, style)
	return b.Bytes()
}

// Append encodes v onto b.
func Append(b *bytes.Buffer, v Value, style Style) {
	comma, colon := ",", ":"
	if style == Python || style == PythonASCII {
		comma, colon = ", ", ": "
	}
	switch t := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(t))
	case string:
		appendString(b, t, style)
	case []Value:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteString(comma)
			}
			Append(b, e, style)
		}
		b.WriteByte(']')
	case *Object:
		b.WriteByte('{')
		for i, m := range t.Members {
			if i > 0 {
				b.WriteString(comma)
			}
			appendString(b, m.Key, style)
			b.WriteString(colon)
			Append(b, m.Value, style)
		}
		b.WriteByte('}')
	default:
		panic(fmt.Sprintf("jsonv: not a JSON value: %T", v))
	}
}

const hex = "0123456789abcdef"

func appendString(b *bytes.Buffer, s string, style Style) {
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\u2028', '\u2029':
			if style == Python {
				b.WriteRune(r)
			} else {
				b.WriteString(`\u202` + string(hex[r&0xF]))
			}
		default:
			if style == PythonASCII && r >= 0x7f {
				appendUnicodeEscape(b, r)
				continue
			}
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[r>>4])
				b.WriteByte(hex[r&0xF])
			} else {
				b.WriteRune(r) // invalid UTF-8 was already replaced by U+FFFD when decoded
			}
		}
	}
	b.WriteByte('"')
}

// appendUnicodeEscape writes r as \uXXXX, or as a surrogate pair.
func appendUnicodeEscape(b *bytes.Buffer, r rune) {
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		appendUnicodeEscape(b, hi)
		appendUnicodeEscape(b, lo)
		return
	}
	b.WriteString(`\u`)
	b.WriteByte(hex[r>>12&0xF])
	b.WriteByte(hex[r>>8&0xF])
	b.WriteByte(hex[r>>4&0xF])
	b.WriteByte(hex[r&0xF])
}

// Clone returns a deep copy of v.
func Clone(v Value) Value {
	switch t := v.(type) {
	case []Value:
		out := make([]Value, len(t))
		for i, e := range t {
			out[i] = Clone(e)
		}
		return out
	case *Object:
		out := &Object{Members: make([]Member, len(t.Members))}
		for i, m := range t.Members {
			out.Members[i] = Member{m.Key, Clone(m.Value)}
		}
		return out
	}
	return v
}
