package tokens

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// The split patterns of cl100k_base and o200k_base name a few character
// classes; a rune's class is a set of these bits, with the same tables the
// regexp engine tiktoken-go runs them on uses (regexp2: \s is
// unicode.IsSpace, \p{X} is Go's unicode.X).
const (
	cL     uint16 = 1 << iota // \p{L}
	cN                        // \p{N}
	cS                        // \s
	cNL                       // \r or \n
	cUpper                    // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}], o200k's leading run of a word
	cLower                    // [\p{Ll}\p{Lm}\p{Lo}\p{M}], o200k's trailing run of a word
	cDel                      // U+007F: see below
)

// The matchers regexp2 generated for tiktoken-go test ASCII against a
// bitmap whose last bit, U+007F (DEL), is never set: DEL is in neither
// [^\r\n\p{L}\p{N}] nor [^\s\p{L}\p{N}], so no alternative matches at
// it, regexp2 moves on, and DEL is in no piece. The counts are tiktoken-go's,
// so the splitters leave it out too (tiktoken itself would count it).

// cPrefix are the classes that keep a rune out of [^\r\n\p{L}\p{N}], the
// one rune both patterns allow before a word; cOther those that keep it out
// of [^\s\p{L}\p{N}], a run of punctuation and symbols.
const (
	cPrefix = cNL | cL | cN | cDel
	cOther  = cS | cL | cN | cDel
)

func classify(r rune) uint16 {
	var c uint16
	if unicode.Is(unicode.L, r) {
		c |= cL
	}
	if unicode.Is(unicode.N, r) {
		c |= cN
	}
	if unicode.IsSpace(r) {
		c |= cS
	}
	switch r {
	case '\r', '\n':
		c |= cNL
	case 0x7f:
		c |= cDel
	}
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= cUpper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= cLower
	}
	return c
}

// classTable holds the class of every rune of the Basic Multilingual Plane,
// so that a split looks classes up instead of searching Unicode's range
// tables rune by rune; runes past it are classified as met.
type classTable [0x10000]uint16

// classes builds the table once, when the first counter is made: a run that
// counts no tokens does not pay for it. It is filled from Unicode's range
// tables, range by range: classifying each of the 65,536 runes searched
// the tables for every class of every rune, a cost every run that counts
// tokens paid at its start. TestClassTableIsClassify holds it to classify.
var classes = sync.OnceValue(func() *classTable {
	t := new(classTable)
	for _, c := range []struct {
		bit    uint16
		tables []*unicode.RangeTable
	}{
		{cL, []*unicode.RangeTable{unicode.L}},
		{cN, []*unicode.RangeTable{unicode.N}},
		{cS, []*unicode.RangeTable{unicode.White_Space}}, // unicode.IsSpace
		{cUpper, []*unicode.RangeTable{unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M}},
		{cLower, []*unicode.RangeTable{unicode.Ll, unicode.Lm, unicode.Lo, unicode.M}},
	} {
		for _, rt := range c.tables {
			t.mark(rt, c.bit)
		}
	}
	t['\r'] |= cNL
	t['\n'] |= cNL
	t[0x7f] |= cDel
	return t
})

// mark sets bit on every rune of the table's ranges in the plane.
func (t *classTable) mark(rt *unicode.RangeTable, bit uint16) {
	for _, r := range rt.R16 {
		for c := uint32(r.Lo); c <= uint32(r.Hi); c += uint32(r.Stride) {
			t[c] |= bit
		}
	}
	for _, r := range rt.R32 {
		for c := r.Lo; c <= r.Hi && c < uint32(len(t)); c += r.Stride {
			t[c] |= bit
		}
	}
}

// at returns the class and the width of the rune at s[i].
func (t *classTable) at(s string, i int) (uint16, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return t[b], 1
	}
	return t.multiByte(s, i)
}

// multiByte is at for a rune of more than one byte.
func (t *classTable) multiByte(s string, i int) (uint16, int) {
	r, w := utf8.DecodeRuneInString(s[i:])
	if r < rune(len(t)) {
		return t[r], w
	}
	return classify(r), w
}

// while returns the end of the run of runes from i whose class has a bit of
// mask. The loops over runs read an ASCII byte's class in place and call
// multiByte only for the other runes: at is too large to be inlined.
func (t *classTable) while(s string, i int, mask uint16) int {
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if t[b]&mask == 0 {
				break
			}
			i++
			continue
		}
		c, w := t.multiByte(s, i)
		if c&mask == 0 {
			break
		}
		i += w
	}
	return i
}

// until returns the end of the run of runes from i whose class has no bit
// of mask.
func (t *classTable) until(s string, i int, mask uint16) int {
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if t[b]&mask != 0 {
				break
			}
			i++
			continue
		}
		c, w := t.multiByte(s, i)
		if c&mask != 0 {
			break
		}
		i += w
	}
	return i
}
