package jsonlex

import (
	"encoding/binary"
	"math/bits"
	"slices"
	"unicode/utf16"
	"unicode/utf8"
)

// Word-at-a-time scanning: a string's bytes need a closer look only at a
// quote, a backslash, a control character or a non-ASCII byte. special
// returns a word whose lowest set high bit marks the first such byte of w
// (little-endian); borrows only travel upwards from a real match, so the
// lowest mark is exact.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func special(w uint64) uint64 {
	q := w ^ (ones * '"')
	b := w ^ (ones * '\\')
	return ((q - ones) | (b - ones) | (w - ones*0x20) | w) & highs
}

// plainRun returns the index of the first byte at or after data[j] that is
// special to a string scan, or len(data).
func plainRun(data []byte, j int) int {
	for j+8 <= len(data) {
		if m := special(binary.LittleEndian.Uint64(data[j:])); m != 0 {
			return j + bits.TrailingZeros64(m)>>3
		}
		j += 8
	}
	for j < len(data) {
		if c := data[j]; c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			return j
		}
		j++
	}
	return j
}

// copyRun appends to buf the run of plain bytes starting at data[j] and
// returns the index of the byte that ends it. Runs between escapes are short
// (think of JSON quoted inside a string), so instead of one append per run
// it stores whole words and keeps the bytes before the first special one.
func copyRun(buf, data []byte, j int) ([]byte, int) {
	for j+8 <= len(data) {
		buf = slices.Grow(buf, 8)
		n := len(buf)
		w := binary.LittleEndian.Uint64(data[j:])
		binary.LittleEndian.PutUint64(buf[n:n+8], w)
		if m := special(w); m != 0 {
			k := bits.TrailingZeros64(m) >> 3
			return buf[:n+k], j + k
		}
		buf = buf[:n+8]
		j += 8
	}
	k := plainRun(data, j)
	return append(buf, data[j:k]...), k
}

// String scans the string whose opening quote is at Data[i]. It returns the
// contents and the index after the closing quote. The contents alias Data,
// or the lexer's scratch space if the string has escapes (or invalid UTF-8
// being replaced), and are valid until the next call.
func (l *Lexer) String(i int) (s []byte, j int) {
	data := l.Data
	start := i + 1
	j = start
	for {
		j = plainRun(data, j)
		if j >= len(data) {
			l.eof()
			return nil, -1
		}
		switch c := data[j]; {
		case c == '"':
			return data[start:j], j + 1
		case c == '\\':
			return l.unescape(start, j)
		case c < 0x20:
			l.fail(j, "in string literal")
			return nil, -1
		case c >= utf8.RuneSelf:
			n := runeLen(data[j:])
			if n == 0 {
				if l.ReplaceInvalid {
					return l.unescape(start, j)
				}
				l.failMsg(j, "invalid UTF-8")
				return nil, -1
			}
			j += n
		default: // not reached: plainRun stops only at the cases above
			j++
		}
	}
}

// runeLen returns the length of the valid UTF-8 sequence at the start of b,
// or 0 if it is not valid. Valid input stays valid in the output, so a
// string needs no copy for being non-ASCII.
func runeLen(b []byte) int {
	r, n := utf8.DecodeRune(b)
	if r == utf8.RuneError && n == 1 {
		return 0
	}
	return n
}

// replacement is U+FFFD in UTF-8.
const replacement = "\uFFFD"

// unescape continues String from data[j], the first backslash (or invalid
// byte), writing the decoded contents of the string starting at data[start]
// into the scratch space.
func (l *Lexer) unescape(start, j int) ([]byte, int) {
	data := l.Data
	buf := append(l.buf[:0], data[start:j]...)
	for {
		buf, j = copyRun(buf, data, j)
		if j >= len(data) {
			l.eof()
			return nil, -1
		}
		switch c := data[j]; {
		case c == '"':
			l.buf = buf // keep the grown buffer for the next string
			return buf, j + 1
		case c < 0x20:
			l.fail(j, "in string literal")
			return nil, -1
		case c >= utf8.RuneSelf:
			n := runeLen(data[j:])
			if n == 0 {
				if !l.ReplaceInvalid {
					l.failMsg(j, "invalid UTF-8")
					return nil, -1
				}
				buf = append(buf, replacement...)
				j++
				continue
			}
			buf = append(buf, data[j:j+n]...)
			j += n
			continue
		}
		// A backslash.
		if j+1 >= len(data) {
			l.eof()
			return nil, -1
		}
		switch e := data[j+1]; e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := l.hex4(j + 2)
			if !ok {
				return nil, -1
			}
			j += 6
			if utf16.IsSurrogate(r) {
				r = l.pairSurrogate(r, &j)
			}
			buf = utf8.AppendRune(buf, r)
			continue
		default:
			l.fail(j+1, "in string escape code")
			return nil, -1
		}
		j += 2
	}
}

// pairSurrogate completes the surrogate r, whose \u escape ends at data[*j],
// exactly as encoding/json does: if a \u escape follows and the two form a
// valid UTF-16 pair, both are consumed and the pair's rune returned; anything
// else (a lone high or low surrogate, two highs, a low then a high) yields
// U+FFFD and leaves the following escape, if any, to be decoded on its own.
func (l *Lexer) pairSurrogate(r rune, j *int) rune {
	data := l.Data
	k := *j
	if len(data)-k >= 6 && data[k] == '\\' && data[k+1] == 'u' {
		if r2, ok := hexVal(data[k+2 : k+6]); ok {
			if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
				*j = k + 6
				return dec
			}
		}
	}
	return utf8.RuneError
}

// hex4 decodes the four hex digits of a \u escape starting at data[i].
func (l *Lexer) hex4(i int) (rune, bool) {
	data := l.Data
	for k := i; k < i+4; k++ {
		if k >= len(data) {
			l.eof()
			return 0, false
		}
		if hexDigit(data[k]) < 0 {
			l.fail(k, "in \\u hexadecimal character escape")
			return 0, false
		}
	}
	r, _ := hexVal(data[i : i+4])
	return r, true
}

func hexVal(b []byte) (rune, bool) {
	var r rune
	for _, c := range b[:4] {
		v := hexDigit(c)
		if v < 0 {
			return 0, false
		}
		r = r<<4 | v
	}
	return r, true
}

func hexDigit(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return rune(c - 'A' + 10)
	}
	return -1
}
