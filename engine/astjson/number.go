package astjson

import "github.com/open-policy-agent/opa/v1/ast"

// number parses the number starting at data[i] ('-' or a digit). Like
// json.Number, the value keeps the literal text.
func (d *decoder) number(i int) (*ast.Term, int) {
	data := d.data
	start := i
	if data[i] == '-' {
		i++
		if i >= len(data) {
			d.eof()
			return nil, i
		}
	}
	switch c := data[i]; {
	case c == '0':
		// A leading zero ends the integer part; a digit after it is then
		// rejected by the caller as trailing garbage, as in encoding/json.
		i++
	case c >= '1' && c <= '9':
		i = digits(data, i+1)
	default:
		d.fail(i, "in numeric literal")
		return nil, i
	}
	integer := true
	if i < len(data) && data[i] == '.' {
		integer = false
		i++
		if i >= len(data) {
			d.eof()
			return nil, i
		}
		if !isDigit(data[i]) {
			d.fail(i, "after decimal point in numeric literal")
			return nil, i
		}
		i = digits(data, i+1)
	}
	exponent := false
	if i < len(data) && data[i]|0x20 == 'e' {
		integer, exponent = false, true
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			d.eof()
			return nil, i
		}
		if !isDigit(data[i]) {
			d.fail(i, "in exponent of numeric literal")
			return nil, i
		}
		i = digits(data, i+1)
	}
	if integer && i-start <= 3 {
		if t := smallInt(data[start:i]); t != nil {
			return t, i
		}
	}
	lit := string(data[start:i])
	if exponent {
		// ast.InterfaceToValue refuses numbers whose exponent would make
		// evaluation costly; refuse the same ones so both agree on what
		// decodes, in time linear in the literal (bignum.go).
		if !numberInRange(lit) {
			if len(lit) > 40 {
				lit = lit[:37] + "..."
			}
			// Decoding goes on, so that a syntax error later in the
			// input is reported first, as encoding/json would.
			if d.rng == nil {
				d.rng = &RangeError{Offset: start, Number: lit}
			}
			return ast.InternedNullTerm, i
		}
	}
	return d.alloc.term(ast.Number(lit)), i
}

// smallInt returns OPA's shared term for the integers it interns (-1 to 512),
// which covers most counts, indexes and token numbers in chat records.
func smallInt(b []byte) *ast.Term {
	neg := b[0] == '-'
	if neg {
		b = b[1:]
	}
	n := 0
	for _, c := range b {
		n = n*10 + int(c-'0')
	}
	if neg {
		if n != 1 {
			return nil // "-0" keeps its text, as in ast.InterfaceToValue
		}
		n = -1
	}
	if !ast.HasInternedIntNumberTerm(n) {
		return nil
	}
	return ast.InternedTerm(n)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}
