// Package astjson decodes JSON bytes straight into OPA ast.Value.
//
// It replaces the encoding/json -> any -> ast.InterfaceToValue round trip on
// the linter's hot path: one pass over the bytes, no reflection and no
// intermediate Go values. The result is ast.Compare-equal to what
// ast.ValueFromReader (encoding/json with UseNumber) produces, but the input
// must be strict RFC 8259 JSON in valid UTF-8.
package astjson

import (
	"sync"

	"github.com/open-policy-agent/opa/v1/ast"
)

// maxDepth is the deepest container nesting accepted; encoding/json uses the
// same limit, so both agree on which inputs are valid. The decoder recurses,
// and this bound keeps hostile input from growing the stack without end.
const maxDepth = 10000

// decoder holds the state of one Decode call. The scratch stacks are reused
// through a pool; the slabs are not, because the returned value points into
// them.
type decoder struct {
	data  []byte
	depth int
	err   *SyntaxError
	rng   *RangeError // the first number OPA refuses; decoding goes on to find syntax errors

	kvs   [][2]*ast.Term // pending object members, shared by all nesting levels
	elems []*ast.Term    // pending array elements, shared by all nesting levels
	buf   []byte         // unescaping scratch

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
func Decode(data []byte) (ast.Value, error) {
	d := decoderPool.Get().(*decoder)
	d.data = data

	var v ast.Value
	i := skipWS(data, 0)
	t, i := d.value(i)
	if t != nil {
		if i = skipWS(data, i); i < len(data) {
			d.fail(i, "after top-level value")
		} else {
			v = t.Value
		}
	}
	err, rng := d.err, d.rng
	d.release()
	if err != nil {
		return nil, err
	}
	if rng != nil {
		return nil, rng
	}
	return v, nil
}

// release drops every reference to the input and result and returns d to the
// pool, so that pooled decoders pin no memory but their scratch capacity.
func (d *decoder) release() {
	// The stacks are truncated without clearing as containers close, so
	// stale pointers may sit anywhere below their capacity.
	clear(d.kvs[:cap(d.kvs)])
	clear(d.elems[:cap(d.elems)])
	d.kvs, d.elems, d.buf = d.kvs[:0], d.elems[:0], d.buf[:0]
	if cap(d.kvs) > 1024 || cap(d.elems) > 1024 || cap(d.buf) > 64<<10 {
		// One huge document should not make every pooled decoder huge.
		d.kvs, d.elems, d.buf = nil, nil, nil
	}
	d.data, d.depth, d.err, d.rng = nil, 0, nil, nil
	d.alloc = slabs{}
	decoderPool.Put(d)
}

// skipWS returns the index of the first non-whitespace byte at or after i.
// It is small enough to be inlined; splitting out a fast path for the common
// no-whitespace case measured slower.
func skipWS(data []byte, i int) int {
	for ; i < len(data); i++ {
		if c := data[i]; c > ' ' || (c != ' ' && c != '\n' && c != '\t' && c != '\r') {
			return i
		}
	}
	return i
}

// value parses the value starting at data[i]. It returns the term and the
// index just past the value, or a nil term after setting d.err.
func (d *decoder) value(i int) (*ast.Term, int) {
	data := d.data
	if i >= len(data) {
		d.eof()
		return nil, i
	}
	switch c := data[i]; c {
	case '"':
		return d.stringValue(i)
	case '{':
		return d.object(i)
	case '[':
		return d.array(i)
	case 't':
		return d.literal(i, "true", ast.InternedBooleanTrue)
	case 'f':
		return d.literal(i, "false", ast.InternedBooleanFalse)
	case 'n':
		return d.literal(i, "null", ast.InternedNullTerm)
	default:
		if c == '-' || (c >= '0' && c <= '9') {
			return d.number(i)
		}
		d.fail(i, "looking for beginning of value")
		return nil, i
	}
}

// literal matches true, false or null at data[i]. The shared interned terms are
// safe to hand out because nobody mutates decoded terms.
func (d *decoder) literal(i int, lit string, t *ast.Term) (*ast.Term, int) {
	data := d.data
	if len(data)-i >= len(lit) && string(data[i:i+len(lit)]) == lit {
		return t, i + len(lit)
	}
	for k := 1; k < len(lit); k++ {
		if i+k >= len(data) {
			d.eof()
			return nil, i
		}
		if data[i+k] != lit[k] {
			d.fail(i+k, "in literal "+lit+" (expecting "+quoteByte(lit[k])+")")
			return nil, i
		}
	}
	return t, i + len(lit) // unreachable: the fast path matched
}

func quoteByte(c byte) string { return "'" + string(c) + "'" }

// enter counts one more level of container nesting and fails past maxDepth;
// the container decrements d.depth when it closes.
func (d *decoder) enter(i int) bool {
	d.depth++
	if d.depth > maxDepth {
		d.failMsg(i, "exceeded max depth")
		return false
	}
	return true
}
