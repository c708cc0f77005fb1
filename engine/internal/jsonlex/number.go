package jsonlex

// Form tells how a number literal is written: an integer has neither bit.
type Form uint8

const (
	Fraction Form = 1 << iota // a decimal point
	Exponent                  // an e or E
)

// Number scans the number starting at Data[i] ('-' or a digit) and returns
// the index after it and its form. The literal is Data[i:j]; what it means
// (and whether it is in range) is the builder's business. One pass, no
// backtracking: linear in the literal's length.
func (l *Lexer) Number(i int) (j int, form Form) {
	data := l.Data
	if data[i] == '-' {
		i++
		if i >= len(data) {
			l.eof()
			return -1, 0
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
		l.fail(i, "in numeric literal")
		return -1, 0
	}
	if i < len(data) && data[i] == '.' {
		form = Fraction
		i++
		if i >= len(data) {
			l.eof()
			return -1, 0
		}
		if !isDigit(data[i]) {
			l.fail(i, "after decimal point in numeric literal")
			return -1, 0
		}
		i = digits(data, i+1)
	}
	if i < len(data) && data[i]|0x20 == 'e' {
		form |= Exponent
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i >= len(data) {
			l.eof()
			return -1, 0
		}
		if !isDigit(data[i]) {
			l.fail(i, "in exponent of numeric literal")
			return -1, 0
		}
		i = digits(data, i+1)
	}
	return i, form
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digits(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}
