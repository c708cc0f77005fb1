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
		if e := internEntryOf(s, hashKey(s)); e != nil {
			d.interned = e
			return &e.term, j
		}
	}
	if d.alloc.recent != nil && len(s) <= maxRecentLen {
		return d.alloc.recent.string(&d.alloc, s), j
	}
	// One copy per string. Copying the whole input once and slicing it
	// was measured slower: the large block made the GC run more often
	// than the small copies (interned strings are not copied at all), and
	// it would pin the whole input for as long as any string lived.
	return d.alloc.str(s), j
}

const maxInternValueLen = 16
