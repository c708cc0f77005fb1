// Package astjson decodes JSON bytes straight into OPA ast.Value.
//
// It replaces the encoding/json -> any -> ast.InterfaceToValue round trip on
// the linter's hot path: one pass over the bytes, no reflection and no
// intermediate Go values. The result is ast.Compare-equal to what
// ast.ValueFromReader (encoding/json with UseNumber) produces, but the input
// must be strict RFC 8259 JSON in valid UTF-8. The tokens come from the
// lexer jsonv shares (engine/internal/jsonlex); this package builds values.
package astjson

import (
	"sync"

	"github.com/chatlint/chatlint/engine/internal/jsonlex"
	"github.com/open-policy-agent/opa/v1/ast"
)

// maxDepth is the deepest container nesting accepted, as in encoding/json.
const maxDepth = jsonlex.MaxDepth

// decoder holds the state of one Decode call: the shared lexer, which reads
// the tokens, and what building OPA values needs. The scratch stacks are
// reused through a pool; the slabs are not, because the returned value
// points into them.
type decoder struct {
	jsonlex.Lexer
	rng *RangeError // the first number OPA refuses; decoding goes on to find syntax errors
	cut bool        // a projection's Dense left elements of an array out
	// inexact: a value a Digest stood in for holds a number OPA may
	// compare as a float64 (digest.go), so the record is decoded again
	// without stand-ins.
	inexact bool
	// share: small objects made only of shared terms are shared
	// (shared.go), in a projected decode even where it builds a value
	// whole.
	share bool
	// carved: the terms are carved from a session's shared blocks
	// (Slabs), so none may enter the process-wide repeat cache: a cached
	// term would keep its block, and through it every line of the
	// session, alive after the session is done.
	carved bool
	// left is how many more values the decode may build (bound.go) of
	// the granted so far, at most ceiling; dense is the offset where it
	// went over, -1 while it has not.
	left, granted, ceiling, dense int

	// interned is the intern cache's entry of the last string value
	// stringValue shared: an object view takes the hash of a member whose
	// value is its term from there (object).
	interned *internEntry

	kvs   [][2]*ast.Term // pending object members, shared by all nesting levels
	elems []*ast.Term    // pending array elements, shared by all nesting levels

	alloc slabs
}

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

// Decode parses one JSON value (surrounded by optional whitespace) into an
// ast.Value. Invalid UTF-8 anywhere in the input is an error. Errors are
// *SyntaxError. Decode is safe for concurrent use.
//
// The result does not alias data. Short object keys and string values are
// shared process-wide (see intern.go), as are true, false, null and small
// integers; terms of the result must therefore not be mutated, which is the
// rule for ast values in general.
func Decode(data []byte) (ast.Value, error) { return decode(data, nil) }

// decode is Decode, or DecodeProjected when p is not nil.
func decode(data []byte, p *Projection) (ast.Value, error) {
	v, _, err := decodeBounded(data, p, nil, -1)
	return v, err
}

// decodeBounded is decode building at most max values (bound), carving its
// terms from in when not nil, also reporting whether a Dense projection
// left elements of an array out.
func decodeBounded(data []byte, p *Projection, in *Slabs, max int) (ast.Value, bool, error) {
	d := decoderPool.Get().(*decoder)
	d.Reset(data)
	d.cut, d.inexact, d.share, d.carved = false, false, p != nil, in != nil
	d.left, d.dense = bound(max), -1
	d.granted, d.ceiling = d.left, Allowance(max, len(data))
	if in != nil {
		d.alloc = in.alloc
	}

	var v ast.Value
	var t *ast.Term
	var i int
	if p == nil {
		t, i = d.value(0)
	} else {
		t, i = d.project(0, p)
	}
	if t != nil && d.End(i) {
		v = t.Value
	}
	dense, granted := d.dense, d.granted
	if dense >= 0 {
		// What was built is dropped here: only its bound was held.
		v = nil
		d.validate()
	}
	var err error
	if d.Failed() {
		err = d.Err()
	}
	rng, cut, inexact := d.rng, d.cut, d.inexact
	if in != nil {
		in.alloc = d.alloc
	}
	d.release()
	switch {
	case err != nil:
		return nil, false, err
	case rng != nil:
		return nil, false, rng
	case dense >= 0:
		return nil, false, &DenseError{Max: granted, Offset: dense, Size: len(data)}
	}
	if inexact {
		return decodeBounded(data, exact(p), in, max)
	}
	return v, cut, nil
}

// release drops every reference to the input and result and returns d to the
// pool, so that pooled decoders pin no memory but their scratch capacity.
func (d *decoder) release() {
	// The stacks are truncated without clearing as containers close, so
	// stale pointers may sit anywhere below their capacity.
	clear(d.kvs[:cap(d.kvs)])
	clear(d.elems[:cap(d.elems)])
	d.kvs, d.elems = d.kvs[:0], d.elems[:0]
	if cap(d.kvs) > 1024 || cap(d.elems) > 1024 {
		// One huge document should not make every pooled decoder huge.
		d.kvs, d.elems = nil, nil
	}
	d.Release()
	d.rng = nil
	d.interned = nil
	d.alloc = slabs{}
	decoderPool.Put(d)
}

// value builds the value at Data[i], after any white space. It returns the
// term and the index just past the value, or a nil term after the lexer
// recorded an error. true, false and null are OPA's shared interned terms,
// safe to hand out because nobody mutates decoded terms.
func (d *decoder) value(i int) (*ast.Term, int) {
	k, i := d.Peek(i)
	switch k {
	case jsonlex.String:
		return d.stringValue(i)
	case jsonlex.Object:
		return d.object(i, nil)
	case jsonlex.Array:
		return d.array(i, nil)
	case jsonlex.Number:
		return d.number(i)
	case jsonlex.True:
		return d.literal(d.Literal(i, "true"), ast.InternedBooleanTrue)
	case jsonlex.False:
		return d.literal(d.Literal(i, "false"), ast.InternedBooleanFalse)
	case jsonlex.Null:
		return d.literal(d.Literal(i, "null"), ast.InternedNullTerm)
	}
	return nil, -1
}

func (d *decoder) literal(j int, t *ast.Term) (*ast.Term, int) {
	if j < 0 {
		return nil, j
	}
	return t, j
}
