package jsonv

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode parses one JSON value; anything but white space after it is an error.
//
// It reads the bytes directly, which is several times faster than
// encoding/json's token stream and gives the same values: strings unquoted
// as encoding/json unquotes them (invalid UTF-8 and unpaired surrogates
// become U+FFFD), numbers as their text. Input it does not accept is decoded
// again with encoding/json, so that errors read as they always did.
func Decode(data []byte) (Value, error) {
	d := decoder{data: data}
	v, ok := d.value(0)
	if ok {
		d.space()
		if d.i == len(data) {
			return v, nil
		}
	}
	return decodeTokens(data)
}

// maxDepth is encoding/json's nesting limit.
const maxDepth = 10000

type decoder struct {
	data []byte
	i    int
}

func (d *decoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// value reads the value at d.i (after white space); false when the input is
// not valid JSON there.
func (d *decoder) value(depth int) (Value, bool) {
	d.space()
	if d.i >= len(d.data) {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		return d.str()
	case c == '-' || '0' <= c && c <= '9':
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, false
}

func (d *decoder) literal(word string) bool {
	if !bytes.HasPrefix(d.data[d.i:], []byte(word)) {
		return false
	}
	d.i += len(word)
	return true
}

func (d *decoder) object(depth int) (Value, bool) {
	if depth > maxDepth {
		return nil, false
	}
	d.i++ // {
	o := &Object{}
	d.space()
	if d.i < len(d.data) && d.data[d.i] == '}' {
		d.i++
		return o, true
	}
	for {
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.space()
		if d.i >= len(d.data) || d.data[d.i] != ':' {
			return nil, false
		}
		d.i++
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		o.Members = append(o.Members, Member{k.(string), v})
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case '}':
			d.i++
			return o, true
		default:
			return nil, false
		}
	}
}

func (d *decoder) array(depth int) (Value, bool) {
	if depth > maxDepth {
		return nil, false
	}
	d.i++ // [
	a := []Value{}
	d.space()
	if d.i < len(d.data) && d.data[d.i] == ']' {
		d.i++
		return a, true
	}
	for {
		v, ok := d.value(depth)
		if !ok {
			return nil, false
		}
		a = append(a, v)
		d.space()
		if d.i >= len(d.data) {
			return nil, false
		}
		switch d.data[d.i] {
		case ',':
			d.i++
		case ']':
			d.i++
			return a, true
		default:
			return nil, false
		}
	}
}

// number reads a number by the JSON grammar and keeps its text.
func (d *decoder) number() (Value, bool) {
	start := d.i
	if d.data[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.data) && d.data[d.i] == '0':
		d.i++
	case d.digits() == 0:
		return nil, false
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if d.digits() == 0 {
			return nil, false
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if d.digits() == 0 {
			return nil, false
		}
	}
	return json.Number(d.data[start:d.i]), true
}

func (d *decoder) digits() int {
	n := 0
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
		n++
	}
	return n
}

// str reads a string at d.i (the opening quote).
func (d *decoder) str() (Value, bool) {
	d.i++
	start := d.i
	// The common case: no escapes, valid UTF-8, no control characters.
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			s := string(d.data[start:d.i])
			d.i++
			return s, true
		case c == '\\':
			return d.unquote(start)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(d.data[d.i:])
			if r == utf8.RuneError && size == 1 {
				return d.unquote(start) // invalid UTF-8: replaced
			}
			d.i += size
			continue
		case c < ' ':
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// unquote reads the rest of a string that has escapes or bytes beyond
// ASCII, from start (just after the opening quote), as encoding/json does.
func (d *decoder) unquote(start int) (Value, bool) {
	b := make([]byte, 0, d.i-start+16)
	b = append(b, d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			return string(b), true
		case c < ' ':
			return nil, false
		case c == '\\':
			if d.i+1 >= len(d.data) {
				return nil, false
			}
			e := d.data[d.i+1]
			d.i += 2
			switch e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, ok := d.hex4()
				if !ok {
					return nil, false
				}
				if utf16.IsSurrogate(r) {
					// A pair only when the next escape completes it;
					// otherwise this half alone is U+FFFD.
					save := d.i
					if d.i+1 < len(d.data) && d.data[d.i] == '\\' && d.data[d.i+1] == 'u' {
						d.i += 2
						if r2, ok := d.hex4(); ok {
							if p := utf16.DecodeRune(r, r2); p != unicode.ReplacementChar {
								b = utf8.AppendRune(b, p)
								continue
							}
						}
					}
					d.i = save
					r = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, r)
			default:
				return nil, false
			}
		case c < utf8.RuneSelf:
			b = append(b, c)
			d.i++
		default:
			r, size := utf8.DecodeRune(d.data[d.i:])
			d.i += size
			b = utf8.AppendRune(b, r)
		}
	}
	return nil, false
}

// hex4 reads the four hex digits of a \u escape at d.i.
func (d *decoder) hex4() (rune, bool) {
	if d.i+4 > len(d.data) {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.i : d.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	d.i += 4
	return r, true
}

// decodeTokens decodes with encoding/json's token stream: the reference for
// what Decode accepts, and where its errors come from.
func decodeTokens(data []byte) (Value, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("jsonv: data after the JSON value")
	}
	return v, nil
}
