package astjson

import (
	"github.com/open-policy-agent/opa/v1/ast"
)

// stringValue builds the string whose opening quote is at Data[i] as a value.
func (d *decoder) stringValue(i int) (*ast.Term, int) {
	s, j := d.String(i)
	if j < 0 {
		return nil, j
	}
	if len(s) == 0 {
		return ast.InternedEmptyString, j
	}
	if len(s) <= maxInternValueLen {
		if t := intern(s, hashKey(s)); t != nil {
			return t, j
		}
	}
	// One copy per string. Copying the whole input once and slicing it
	// was measured slower: the large block made the GC run more often
	// than the small copies (interned strings are not copied at all), and
	// it would pin the whole input for as long as any string lived.
	return d.alloc.term(ast.String(string(s))), j
}

const maxInternValueLen = 16

// keyTerm builds an object key the lexer read. Short keys come from the
// process-wide intern cache: chat records repeat the same few keys in every
// line. It also returns a one-bit fingerprint of the key for object's
// duplicate filter.
func (d *decoder) keyTerm(s []byte) (*ast.Term, uint64) {
	var h uint64
	if len(s) <= maxInternLen {
		h = hashKey(s)
		if t := intern(s, h); t != nil {
			return t, 1 << (h >> 58)
		}
	} else {
		h = uint64(len(s)) << 58 // long keys are rare; equal keys have equal lengths
	}
	return d.alloc.term(ast.String(string(s))), 1 << (h >> 58)
}
