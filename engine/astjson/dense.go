package astjson

import (
	"github.com/chatlint/chatlint/engine/internal/jsonlex"
	"github.com/open-policy-agent/opa/v1/ast"
)

// denseArray builds the array at Data[i] as a projection with Dense set
// says: an array whose elements are all numbers, booleans or null keeps its
// first p.Dense elements, and the rest are validated, not built. OPA holds an
// array as a pointer and a hash per element, so a dense line of numbers
// costs some 16 bytes of terms per 2 bytes of input built whole; the reader
// of such an array (a builder looking for text and calls) learns nothing
// from the elements it leaves out.
//
// Any other array is built as p.Elem says, from its start again: the
// scalars read so far are read twice, and the lexer is put back as it was,
// so errors and refused numbers are the ones a plain decode reports.
func (d *decoder) denseArray(i int, p *Projection) (*ast.Term, int) {
	depth, rng := d.Depth, d.rng
	if !d.Enter(i) {
		return nil, -1
	}
	j, more := d.FirstElement(i + 1)
	if !more {
		if j < 0 {
			return nil, j
		}
		return d.alloc.term(ast.NewArray()), j
	}
	base := len(d.elems)
	n := 0
	for more {
		k, at := d.Peek(j)
		var end int
		switch k {
		case jsonlex.Number, jsonlex.True, jsonlex.False, jsonlex.Null:
			if n < p.Dense {
				var v *ast.Term
				if v, end = d.value(at); v != nil {
					if d.left--; d.left < 0 && !d.more(end) {
						d.elems = d.elems[:base]
						return d.over(end)
					}
					d.elems = append(d.elems, v)
				}
			} else {
				end = d.skip(at)
			}
		case jsonlex.Invalid:
			end = -1
		default: // not dense: build it as a plain projection does
			d.elems = d.elems[:base]
			d.Depth, d.rng = depth, rng
			if p.Elem != nil {
				return d.array(i, p.Elem)
			}
			return d.value(i)
		}
		if end < 0 {
			d.elems = d.elems[:base]
			return nil, -1
		}
		n++
		if j, more = d.Element(end); j < 0 {
			d.elems = d.elems[:base]
			return nil, j
		}
	}
	if n > p.Dense {
		d.cut = true
	}
	elems := d.alloc.slice(len(d.elems) - base)
	copy(elems, d.elems[base:])
	d.elems = d.elems[:base]
	return d.alloc.term(ast.NewArray(elems...)), j
}

// shapeProjection decodes a value whole but for dense arrays of more than
// shapeDense elements (DecodeShape).
var shapeProjection = func() *Projection {
	p := &Projection{Object: true, KeepOthers: true, Dense: shapeDense}
	p.Others, p.Elem = p, p
	return p
}()

// shapeDense is how many elements of a dense array DecodeShape keeps: more
// than any reader of a record's shape looks at.
const shapeDense = 64

// DecodeShape is Decode but for the arrays of more than a few dozen
// elements that are all numbers, booleans or null: those keep their first
// elements only (see Projection.Dense). whole reports that no array was cut,
// so the value is the one Decode gives. It accepts and rejects exactly the
// inputs Decode does. Detection reads a record's shape, its members and
// their kinds, never the length of a list of numbers: a 60 MB such list
// need not be built to tell the format.
func DecodeShape(data []byte) (v ast.Value, whole bool, err error) {
	v, cut, err := decodeBounded(data, shapeProjection, nil, -1)
	return v, !cut, err
}
