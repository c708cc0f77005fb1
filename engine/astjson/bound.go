package astjson

import (
	"fmt"

	"github.com/open-policy-agent/opa/v1/ast"
)

// DefaultMaxValues bounds the values one record builds unless a caller
// sets its own bound (check's --max-record-values): far above any real
// record, low enough that the worst record under it stays within the
// memory docs/limits.md promises for every command.
const DefaultMaxValues = 50_000

// A record whose text holds at least SparseBytes bytes for each value it
// may build, up to SparseFactor times the bound, is not dense: a long agent
// trajectory read whole as one .json document is one record, and the
// public ones hold a value per 60 to 500 bytes, so a trajectory of a few
// MB would be over a bound set for one line. The memory such a record
// takes follows its bytes, which --max-line-size bounds, more than its
// values; a record of tiny values (the dense shapes the bound is for, a
// value per 2 to 30 bytes) gains nothing.
const (
	SparseBytes  = 48
	SparseFactor = 2
)

// Allowance is the most values a record of size bytes may build under the
// bound max (0: DefaultMaxValues, negative: none): max, or for a sparse
// record one value per SparseBytes of its text, up to SparseFactor times
// max. The decoder grants it as it reads: past max, each value must come
// with SparseBytes more of the text, so a sparse opening buys no room for
// a dense rest.
func Allowance(max, size int) int {
	b := bound(max)
	if max < 0 {
		return b
	}
	if n := size / SparseBytes; n > b {
		return min(n, SparseFactor*b)
	}
	return b
}

// more grants a record over its bound more values as Allowance says: true
// when the values built, the one over the bound included, are at most one
// per SparseBytes of the text read up to at, and under the ceiling.
func (d *decoder) more(at int) bool {
	built := d.granted - d.left
	limit := min(at/SparseBytes, d.ceiling)
	if built > limit {
		return false
	}
	d.left += limit - d.granted
	d.granted = limit
	return true
}

// DenseError is a record that builds more values than its bound: the
// decode stopped at the first value over it, so no more than the bound was
// ever built, and what was built is garbage once the error is returned.
type DenseError struct {
	Max    int // the bound
	Offset int // byte offset just past the value that went over it
	Size   int // length of the input
}

func (e *DenseError) Error() string {
	return fmt.Sprintf("the record holds more than %d values (the limit was reached at byte %d of %d)", e.Max, e.Offset, e.Size)
}

// DecodeMax is Decode building at most Allowance(max, len(data)) values (max
// 0: DefaultMaxValues, a negative max: no bound). A value counts when it is built as a member or an
// element of a container (the top-level value does not): a value a
// projection leaves out or keeps as a stand-in, or a repeated value taken
// from the cache, counts as the one term it is, what it holds not at all
// (but a cached value counts what building it counted, so that whether a
// record is over the bound does not depend on the records before it).
//
// An input Decode refuses is refused with the same error; an input over
// the bound is a *DenseError.
func DecodeMax(data []byte, max int) (ast.Value, error) {
	v, _, err := decodeBounded(data, nil, nil, max)
	return v, err
}

// DecodeProjectedMax is DecodeProjected building at most max values, as
// DecodeMax counts them.
func DecodeProjectedMax(data []byte, p *Projection, max int) (ast.Value, error) {
	v, _, err := decodeBounded(data, p, nil, max)
	return v, err
}

// DecodeShapeMax is DecodeShape building at most max values, as DecodeMax
// counts them: the elements a dense array leaves out do not count.
func DecodeShapeMax(data []byte, max int) (v ast.Value, whole bool, err error) {
	v, cut, err := decodeBounded(data, shapeProjection, nil, max)
	return v, !cut, err
}

// bound turns a caller's max into the decoder's allowance.
func bound(max int) int {
	switch {
	case max == 0:
		return DefaultMaxValues
	case max < 0:
		return int(^uint(0) >> 1)
	}
	return max
}

// over records that the value ending at Data[at] went over the bound and
// fails the lexer, so the builder unwinds; decodeBounded turns it into a
// *DenseError once it knows the input is valid JSON.
func (d *decoder) over(at int) (*ast.Term, int) {
	if d.dense < 0 {
		d.dense = at
	}
	d.Stop(at)
	return nil, -1
}

// validate reads the whole input again without building it, after a decode
// stopped at the bound: an input Decode refuses is refused with its error
// whatever its size.
func (d *decoder) validate() {
	clear(d.kvs[:cap(d.kvs)])
	clear(d.elems[:cap(d.elems)])
	d.kvs, d.elems = d.kvs[:0], d.elems[:0]
	d.alloc = slabs{}
	d.Reset(d.Data)
	d.rng = nil
	if i := d.skip(0); i >= 0 {
		d.End(i)
	}
}
