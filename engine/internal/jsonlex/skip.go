package jsonlex

import "unicode/utf8"

// SkipString reads the string whose opening quote is at Data[i] as String
// does, with the same errors at the same offsets, but without unescaping it:
// it returns only the index after the closing quote. A builder skipping a
// value it does not build (astjson's projections) saves the copy that every
// escape costs String.
func (l *Lexer) SkipString(i int) int {
	data := l.Data
	j := i + 1
	for {
		j = plainRun(data, j)
		if j >= len(data) {
			l.eof()
			return -1
		}
		switch c := data[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			l.fail(j, "in string literal")
			return -1
		case c >= utf8.RuneSelf:
			n := runeLen(data[j:])
			if n == 0 {
				if !l.ReplaceInvalid {
					l.failMsg(j, "invalid UTF-8")
					return -1
				}
				n = 1
			}
			j += n
		default: // a backslash
			if j+1 >= len(data) {
				l.eof()
				return -1
			}
			switch data[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				// Every \u escape must be four hex digits, whether or
				// not it pairs with the one before it (pairSurrogate
				// consumes a following escape only when it is valid).
				if _, ok := l.hex4(j + 2); !ok {
					return -1
				}
				j += 6
			default:
				l.fail(j+1, "in string escape code")
				return -1
			}
		}
	}
}
