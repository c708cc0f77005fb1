package openai

import "strconv"

// LoneSurrogates counts the \u escapes of JSON text that name half of a
// UTF-16 surrogate pair without the other half (\ud83d alone). No UTF-8
// string can hold one, so the decoder writes U+FFFD in its place, as
// encoding/json and Python's json do when they encode: an example converted
// from such a record holds U+FFFD where the source held the escape, and
// convert notes it. It returns the count and the first such escape.
func LoneSurrogates(b []byte) (n int, first string) {
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' || i+1 >= len(b) {
			continue
		}
		if b[i+1] != 'u' {
			i++ // an escaped character: \\ is one, so a following u is text
			continue
		}
		r, ok := hex4(b, i+2)
		if !ok {
			continue
		}
		switch {
		case r >= 0xd800 && r < 0xdc00: // high: a low one must follow
			if lo, ok := lowAt(b, i+6); ok && lo {
				i += 11
				continue
			}
		case r >= 0xdc00 && r < 0xe000: // low without a high before it
		default:
			i += 5
			continue
		}
		if n == 0 {
			first = string(b[i : i+6])
		}
		n++
		i += 5
	}
	return n, first
}

func lowAt(b []byte, i int) (bool, bool) {
	if i+1 >= len(b) || b[i] != '\\' || b[i+1] != 'u' {
		return false, false
	}
	r, ok := hex4(b, i+2)
	return r >= 0xdc00 && r < 0xe000, ok
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[i:i+4]), 16, 16)
	return rune(v), err == nil
}
