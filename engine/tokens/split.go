package tokens

import "unicode/utf8"

// tiktoken splits a text into pieces with a regular expression before it
// merges the bytes of each piece; tiktoken-go runs the expression on regexp2,
// a backtracking engine that allocates a match per piece and costs more than
// the merging. The splitters below give the same pieces with one pass over
// the bytes: each alternative of the pattern, in the pattern's order, becomes
// the code that decides whether it matches at a position and where the match
// ends. FuzzSplitMatchesRegexp holds them to the expressions.
//
// cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Every rune starts a match of some alternative, so the pieces cover the
// text. Both work on valid UTF-8; Counter.tokenize first replaces each byte
// of an invalid sequence with U+FFFD, as regexp2 does when it reads the
// text as runes.

// splitter returns the end of the piece of s that starts at i (i < len(s)),
// or i when no piece starts there (at U+007F, see cDel): the caller moves on
// by a rune, as regexp2 does.
type splitter func(t *classTable, s string, i int) int

// nextCl100k is cl100k_base's split.
func nextCl100k(t *classTable, s string, i int) int {
	if n := contraction(s, i); n > 0 { // (?i:'s|'t|'re|'ve|'m|'ll|'d)
		return i + n
	}
	if a := asciiWordStart(t, s, i); a >= 0 {
		// A word of ASCII letters, unless it may go on in other letters.
		if e := asciiLetters(s, a); e == len(s) || s[e] < utf8.RuneSelf {
			return e
		}
	}
	c0, w0 := t.at(s, i)
	if c0&cL != 0 { // [^\r\n\p{L}\p{N}]?\p{L}+ without its prefix
		return t.while(s, i+w0, cL)
	}
	if c0&cPrefix == 0 && i+w0 < len(s) { // ... with it
		if c1, w1 := t.at(s, i+w0); c1&cL != 0 {
			return t.while(s, i+w0+w1, cL)
		}
	}
	if c0&cN != 0 {
		return digits(t, s, i+w0)
	}
	if j := punctuation(t, s, i, c0); j > i {
		return endNewlines(s, j, false)
	}
	return spaces(t, s, i)
}

// nextO200k is o200k_base's split.
func nextO200k(t *classTable, s string, i int) int {
	if a := asciiWordStart(t, s, i); a >= 0 {
		// A word of ASCII letters: the first alternative when lower-case
		// letters end it, else the second. No ASCII letter is in both
		// classes, so neither gives back a rune.
		u := a
		for u < len(s) && s[u]-'A' < 26 {
			u++
		}
		e := u
		for e < len(s) && s[e]-'a' < 26 {
			e++
		}
		if e == len(s) || s[e] < utf8.RuneSelf { // else it may go on in other letters or marks
			return e + contraction(s, e)
		}
	}
	c0, w0 := t.at(s, i)
	prefix := c0&cPrefix == 0
	// The first alternative: a word that ends in lower-case letters. Its
	// optional prefix is tried taken, then not.
	if prefix {
		if e := lowerWord(t, s, i+w0); e >= 0 {
			return e + contraction(s, e)
		}
	}
	if c0&(cUpper|cLower) != 0 {
		if e := lowerWord(t, s, i); e >= 0 {
			return e + contraction(s, e)
		}
	}
	// The second: upper-case letters, then maybe lower-case ones.
	if prefix && i+w0 < len(s) {
		if c1, _ := t.at(s, i+w0); c1&cUpper != 0 {
			e := t.while(s, t.while(s, i+w0, cUpper), cLower)
			return e + contraction(s, e)
		}
	}
	if c0&cUpper != 0 {
		e := t.while(s, t.while(s, i, cUpper), cLower)
		return e + contraction(s, e)
	}
	if c0&cN != 0 {
		return digits(t, s, i+w0)
	}
	if j := punctuation(t, s, i, c0); j > i {
		return endNewlines(s, j, true)
	}
	return spaces(t, s, i)
}

// asciiWordStart returns where the letters of a word that starts at i
// begin, when the rune at i is an ASCII letter (i) or an ASCII rune of
// [^\r\n\p{L}\p{N}] before one (i+1); otherwise -1, and the general split
// decides. The words of most texts are ASCII, and the split of their bytes
// needs no rune decoded and no class beyond the byte's.
func asciiWordStart(t *classTable, s string, i int) int {
	b := s[i]
	if b >= utf8.RuneSelf {
		return -1
	}
	if t[b]&cL != 0 {
		return i
	}
	if t[b]&cPrefix != 0 || i+1 == len(s) {
		return -1
	}
	if b = s[i+1]; b < utf8.RuneSelf && t[b]&cL != 0 {
		return i + 1
	}
	return -1
}

// asciiLetters returns the end of the run of ASCII letters from a.
func asciiLetters(s string, a int) int {
	for a < len(s) && (s[a]|0x20)-'a' < 26 {
		a++
	}
	return a
}

// lowerWord matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+
// from a, and returns its end or -1. The first run is greedy, and gives
// runes back until the second can start: the second starts at the last rune
// of the first run's reach (the run and the rune after it) that is in its
// class. When that is the rune after the run it takes its whole run; inside
// the run it ends after that rune, since the runes after it are not in its
// class.
func lowerWord(t *classTable, s string, a int) int {
	j, last := a, -1
	for j < len(s) {
		if b := s[j]; b < utf8.RuneSelf { // no ASCII letter is in both classes
			if t[b]&cUpper == 0 {
				break
			}
			j++
			continue
		}
		c, w := t.multiByte(s, j)
		if c&cUpper == 0 {
			break
		}
		if c&cLower != 0 {
			last = j + w
		}
		j += w
	}
	if j < len(s) {
		if c, _ := t.at(s, j); c&cLower != 0 {
			return t.while(s, j, cLower)
		}
	}
	return last
}

// digits ends \p{N}{1,3} whose first rune ends at i.
func digits(t *classTable, s string, i int) int {
	for k := 1; k < 3 && i < len(s); k++ {
		c, w := t.at(s, i)
		if c&cN == 0 {
			break
		}
		i += w
	}
	return i
}

// punctuation matches " ?[^\s\p{L}\p{N}]+" at i and returns its end, or i.
// The space is tried taken, then not; not taken, the run starts with a space
// and fails.
func punctuation(t *classTable, s string, i int, c0 uint16) int {
	j := i
	if s[i] == ' ' {
		j++
		if j == len(s) {
			return i
		}
		c0, _ = t.at(s, j)
	}
	if c0&cOther != 0 {
		return i
	}
	return t.until(s, j, cOther)
}

// endNewlines takes the [\r\n]* (o200k: [\r\n/]*) after a run of
// punctuation.
func endNewlines(s string, j int, slash bool) int {
	for j < len(s) && (s[j] == '\r' || s[j] == '\n' || slash && s[j] == '/') {
		j++
	}
	return j
}

// spaces matches the last three alternatives at s[i]. \s*[\r\n]+ as
// regexp2 generated it for tiktoken-go ends after the first run of newlines
// in the run of spaces: when the greedy \s* gives runes back it jumps to the
// first newline of its reach, not the last (tiktoken itself ends after the
// last). Without a newline, \s+(?!\S) takes the run but its last space when
// a non-space follows, and \s+ takes a lone space before a non-space.
func spaces(t *classTable, s string, i int) int {
	j, lastStart := i, i
	for j < len(s) {
		c, w := t.at(s, j)
		if c&cS == 0 {
			break
		}
		if c&cNL != 0 {
			return endNewlines(s, j, false)
		}
		lastStart = j
		j += w
	}
	switch {
	case j == i:
		return i // U+007F
	case j == len(s) || lastStart == i:
		return j
	default:
		return lastStart
	}
}

// contraction returns the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i],
// or 0. regexp2 folds case by Unicode's simple folding: 's' also matches
// U+017F, LATIN SMALL LETTER LONG S.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return 0
	}
	switch s[i+1] {
	case 's', 'S', 't', 'T', 'm', 'M', 'd', 'D':
		return 2
	case 'r', 'R', 'v', 'V':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return 3
		}
	case 'l', 'L':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return 3
		}
	case 0xC5: // U+017F is C5 BF
		if i+2 < len(s) && s[i+2] == 0xBF {
			return 3
		}
	}
	return 0
}
