package astjson

import (
	"github.com/chatlint/chatlint/engine/internal/jsonlex"
	"github.com/open-policy-agent/opa/v1/ast"
)

// number builds the number starting at Data[i] ('-' or a digit). Like
// json.Number, the value keeps the literal text.
func (d *decoder) number(i int) (*ast.Term, int) {
	j, form := d.Number(i)
	if j < 0 {
		return nil, j
	}
	data := d.Data
	if form == 0 && j-i <= 3 {
		if t := smallInt(data[i:j]); t != nil {
			return t, j
		}
	}
	if !d.inRange(i, j, form) {
		return ast.InternedNullTerm, j
	}
	return d.alloc.term(ast.Number(string(data[i:j]))), j
}

// inRange reports whether the number literal Data[i:j] of the given form is
// one OPA evaluates, and records the first one that is not.
func (d *decoder) inRange(i, j int, form jsonlex.Form) bool {
	if form&jsonlex.Exponent == 0 {
		return true
	}
	// ast.InterfaceToValue refuses numbers whose exponent would make
	// evaluation costly; refuse the same ones so both agree on what
	// decodes, in time linear in the literal (bignum.go).
	lit := string(d.Data[i:j])
	if numberInRange(lit) {
		return true
	}
	if len(lit) > 40 {
		lit = lit[:37] + "..."
	}
	// Decoding goes on, so that a syntax error later in the input is
	// reported first, as encoding/json would.
	if d.rng == nil {
		d.rng = &RangeError{Offset: i, Number: lit}
	}
	return false
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
