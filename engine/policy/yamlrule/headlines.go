package yamlrule

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A `matches` pattern that opens with \A(?:[^\n]*\n){0,N}[^\n]*? looks for
// the rest of the pattern in the first N+1 lines of the text: a Codex exec
// output's "Exit code: 1" (rules/integrity/blocks.yaml). Go's backtracking
// matcher tries every way of taking up to N lines and every position on the
// line after them, each against the rest, which made that one pattern a
// seventh of check's instructions on Codex rollouts. Where the rest matches
// no newline and asserts nothing about its surroundings, the pattern
// matches a text exactly when the rest, unanchored, matches the text cut
// after its first N+1 lines: a match starts on one of those lines and, as
// it crosses no newline, ends on it too.

// headPattern is such a pattern: the rest, searched for in the first lines.
// Where the rest opens with a literal (the exit-code pattern's "exit", in
// any case), it is tried only where the literal is, anchored there: Go's
// matcher would try it at every position, the literal having no fixed
// case.
type headPattern struct {
	lines int            // N+1
	rest  *regexp.Regexp // unanchored
	// lit is the literal the rest opens with, lower-cased when fold is set
	// (ASCII only, and letters whose every case is ASCII); "" when there
	// is none. at is the rest anchored at the text's start.
	lit  string
	fold bool
	at   *regexp.Regexp
}

// matchString reports whether the pattern it was made from matches s.
func (h *headPattern) matchString(s string) bool {
	cut, n := 0, 0
	for n < h.lines {
		i := strings.IndexByte(s[cut:], '\n')
		if i < 0 {
			cut = len(s)
			break
		}
		cut += i + 1
		n++
	}
	if n == h.lines {
		cut-- // the text up to the newline that ends line N+1, not past it
	}
	s = s[:cut]
	if h.lit == "" {
		return h.rest.MatchString(s)
	}
	for i := 0; i+len(h.lit) <= len(s); i++ {
		if h.litAt(s[i:]) && h.at.MatchString(s[i:]) {
			return true
		}
	}
	return false
}

// litAt reports whether s opens with the literal.
func (h *headPattern) litAt(s string) bool {
	if !h.fold {
		return strings.HasPrefix(s, h.lit)
	}
	for j := 0; j < len(h.lit); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != h.lit[j] {
			return false
		}
	}
	return true
}

// headLines returns pattern as a headPattern, or nil when it is not of that
// form (or anything in it is in doubt).
func headLines(pattern string) *headPattern {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil || re.Op != syntax.OpConcat || len(re.Sub) < 4 {
		return nil
	}
	lines, any, rest := re.Sub[0], re.Sub[1], re.Sub[2]
	if lines.Op != syntax.OpBeginText {
		return nil
	}
	// (?:[^\n]*\n){0,N}
	if any.Op != syntax.OpRepeat || any.Min != 0 || any.Max < 0 || !isLine(any.Sub[0]) {
		return nil
	}
	// [^\n]*? (or greedy: a match either way)
	if rest.Op != syntax.OpStar || !notNewline(rest.Sub[0]) || rest.Sub[0].Op != syntax.OpCharClass {
		return nil
	}
	tail := &syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[3:], Flags: re.Flags}
	for _, sub := range tail.Sub {
		if !notNewline(sub) {
			return nil
		}
	}
	compiled, err := regexp.Compile(tail.String())
	if err != nil {
		return nil
	}
	h := &headPattern{lines: any.Max + 1, rest: compiled}
	if lit, fold, ok := asciiLiteral(tail.Sub[0]); ok {
		at, err := regexp.Compile(`\A(?:` + tail.String() + `)`)
		if err != nil {
			return nil
		}
		h.lit, h.fold, h.at = lit, fold, at
	}
	return h
}

// asciiLiteral returns the literal r is, lower-cased when it matches in any
// case, where every rune of it and each of the rune's cases is ASCII: a
// search byte by byte then finds exactly where it matches (Go's (?i) also
// matches K with the Kelvin sign, s with the long s).
func asciiLiteral(r *syntax.Regexp) (lit string, fold bool, ok bool) {
	if r.Op != syntax.OpLiteral || len(r.Rune) == 0 {
		return "", false, false
	}
	fold = r.Flags&syntax.FoldCase != 0
	b := make([]byte, 0, len(r.Rune))
	for _, c := range r.Rune {
		if c >= utf8.RuneSelf {
			return "", false, false
		}
		if fold {
			for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
				if f >= utf8.RuneSelf {
					return "", false, false
				}
			}
			c = unicode.ToLower(c)
		}
		b = append(b, byte(c))
	}
	return string(b), fold, true
}

// isLine reports whether r is [^\n]*\n.
func isLine(r *syntax.Regexp) bool {
	return r.Op == syntax.OpConcat && len(r.Sub) == 2 &&
		r.Sub[0].Op == syntax.OpStar && r.Sub[0].Sub[0].Op == syntax.OpCharClass && notNewline(r.Sub[0].Sub[0]) &&
		r.Sub[1].Op == syntax.OpLiteral && len(r.Sub[1].Rune) == 1 && r.Sub[1].Rune[0] == '\n'
}

// notNewline reports whether r matches no newline and asserts nothing about
// what lies around it (no anchor, no word boundary).
func notNewline(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpNoMatch, syntax.OpEmptyMatch, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		for _, c := range r.Rune {
			if c == '\n' {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(r.Rune); i += 2 {
			if r.Rune[i] <= '\n' && '\n' <= r.Rune[i+1] {
				return false
			}
		}
		return true
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat, syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range r.Sub {
			if !notNewline(sub) {
				return false
			}
		}
		return true
	}
	return false
}
