package py

import "bytes"

// The contract's reference validator parses each line with Python's json
// module and reports the decoder's message ("Expecting ',' delimiter"); its
// users' dashboards group errors by that text. Loads replays Python's
// decoder on a line chatlint's own decoder rejected, to word the error the
// same way, and to find the lines Python accepts although they are not
// strict JSON: the literals NaN, Infinity and -Infinity.

// Loads reports how Python's json.loads treats b (already stripped of
// surrounding whitespace). When Python rejects it, msg is its message. When
// Python accepts it, msg is "" and nulled is b with every NaN, Infinity and
// -Infinity outside strings replaced by null (nil when there were none), a
// strict JSON text with the same shape.
func Loads(b []byte) (msg string, nulled []byte) {
	p := pyParser{b: b}
	if bytes.HasPrefix(b, BOM) {
		return "Unexpected UTF-8 BOM (decode using utf-8-sig)", nil
	}
	i := p.ws(0)
	i, ok := p.value(i)
	if !ok {
		if p.msg == "" {
			p.msg = "Expecting value"
		}
		return p.msg, nil
	}
	if i = p.ws(i); i != len(b) {
		return "Extra data", nil
	}
	if !p.nonFinite {
		return "", nil
	}
	return "", ReplaceNonFinite(b, "null", "null", "null")
}

// BOM is the UTF-8 byte order mark, which json.loads refuses on bytes.
var BOM = []byte{0xEF, 0xBB, 0xBF}

type pyParser struct {
	b         []byte
	msg       string // set by the first error other than "Expecting value"
	nonFinite bool   // a NaN or Infinity literal was read
	depth     int
}

func (p *pyParser) ws(i int) int {
	for i < len(p.b) {
		switch p.b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

func (p *pyParser) fail(msg string) (int, bool) {
	p.msg = msg
	return 0, false
}

// value parses one value at i. A false return with p.msg empty is Python's
// StopIteration, which its callers word as "Expecting value".
func (p *pyParser) value(i int) (int, bool) {
	if i >= len(p.b) {
		return 0, false
	}
	switch c := p.b[i]; {
	case c == '"':
		return p.str(i + 1)
	case c == '{':
		return p.object(i + 1)
	case c == '[':
		return p.array(i + 1)
	case c == 'n':
		return p.literal(i, "null", false)
	case c == 't':
		return p.literal(i, "true", false)
	case c == 'f':
		return p.literal(i, "false", false)
	case c == 'N':
		return p.literal(i, "NaN", true)
	case c == 'I':
		return p.literal(i, "Infinity", true)
	case c == '-' && bytes.HasPrefix(p.b[i:], []byte("-Infinity")):
		return p.literal(i, "-Infinity", true)
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number(i)
	}
	return 0, false
}

func (p *pyParser) literal(i int, lit string, nonStandard bool) (int, bool) {
	if !bytes.HasPrefix(p.b[i:], []byte(lit)) {
		return 0, false
	}
	if nonStandard {
		p.nonFinite = true
	}
	return i + len(lit), true
}

// number matches -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, taking the
// longest prefix that fits, as Python does ("01" is 0 then extra data).
func (p *pyParser) number(i int) (int, bool) {
	b := p.b
	if b[i] == '-' {
		i++
	}
	if i >= len(b) || b[i] < '0' || b[i] > '9' {
		return 0, false
	}
	if b[i] == '0' {
		i++
	} else {
		i = digits(b, i)
	}
	if i+1 < len(b) && b[i] == '.' && isDigit(b[i+1]) {
		i = digits(b, i+1)
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		j := i + 1
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			j++
		}
		if j < len(b) && isDigit(b[j]) {
			i = digits(b, j)
		}
	}
	return i, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(b []byte, i int) int {
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	return i
}

// str parses a string whose opening quote is at i-1.
func (p *pyParser) str(i int) (int, bool) {
	b := p.b
	for i < len(b) {
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return p.fail("Invalid control character at")
		case c == '\\':
			if i+1 >= len(b) {
				return p.fail("Unterminated string starting at")
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) || !isHex(b[i+2:i+6]) {
					return p.fail(`Invalid \uXXXX escape`)
				}
				i += 6
			default:
				return p.fail(`Invalid \escape`)
			}
		default:
			i++
		}
	}
	return p.fail("Unterminated string starting at")
}

func isHex(b []byte) bool {
	for _, c := range b {
		if !isDigit(c) && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}

// maxPyDepth stops runaway nesting; Python itself fails deeper than its
// recursion limit (with a RecursionError, not a JSON message).
const maxPyDepth = 10000

func (p *pyParser) object(i int) (int, bool) {
	if p.depth++; p.depth > maxPyDepth {
		return p.fail("exceeded max depth")
	}
	defer func() { p.depth-- }()
	b := p.b
	i = p.ws(i)
	if i < len(b) && b[i] == '}' {
		return i + 1, true
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return p.fail("Expecting property name enclosed in double quotes")
		}
		var ok bool
		if i, ok = p.str(i + 1); !ok {
			return 0, false
		}
		i = p.ws(i)
		if i >= len(b) || b[i] != ':' {
			return p.fail("Expecting ':' delimiter")
		}
		if i, ok = p.value(p.ws(i + 1)); !ok {
			return 0, false
		}
		i = p.ws(i)
		if i < len(b) && b[i] == '}' {
			return i + 1, true
		}
		if i >= len(b) || b[i] != ',' {
			return p.fail("Expecting ',' delimiter")
		}
		i = p.ws(i + 1)
		if i < len(b) && b[i] == '}' {
			return p.fail("Illegal trailing comma before end of object")
		}
	}
}

func (p *pyParser) array(i int) (int, bool) {
	if p.depth++; p.depth > maxPyDepth {
		return p.fail("exceeded max depth")
	}
	defer func() { p.depth-- }()
	b := p.b
	i = p.ws(i)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var ok bool
		if i, ok = p.value(i); !ok {
			return 0, false
		}
		i = p.ws(i)
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		if i >= len(b) || b[i] != ',' {
			return p.fail("Expecting ',' delimiter")
		}
		i = p.ws(i + 1)
		if i < len(b) && b[i] == ']' {
			return p.fail("Illegal trailing comma before end of array")
		}
	}
}
