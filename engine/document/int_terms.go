package document

import (
	"strconv"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
)

// intTerm returns the term of the integer i. OPA interns the integers up to
// 512; above, each call made a term of its own, and a record of a million
// messages asked for several per message (its index, its turn, the lookup's
// lists of indexes): about a fifth of its document. The integers up to
// maxSharedInt come instead from chunks of terms made once per process, the
// first time a document needs one, and shared by every document as OPA
// shares its interned terms (terms are never mutated). A process keeps at
// most the chunks its longest record needed, less than that record's
// document allocated for them.
func intTerm(i int) *ast.Term {
	if i < 0 || i >= maxSharedInt {
		return ast.InternedTerm(i)
	}
	c := &intChunks[i/intChunk]
	p := c.Load()
	if p == nil {
		p = newIntChunk(i / intChunk * intChunk)
		if !c.CompareAndSwap(nil, p) {
			p = c.Load()
		}
	}
	return &p[i%intChunk]
}

const (
	intChunk     = 4096
	maxSharedInt = 1 << 21
)

var intChunks [maxSharedInt / intChunk]atomic.Pointer[[intChunk]ast.Term]

// newIntChunk makes the terms of the integers from base on.
func newIntChunk(base int) *[intChunk]ast.Term {
	p := new([intChunk]ast.Term)
	for k := range p {
		if n := base + k; n <= 512 {
			p[k] = *ast.InternedTerm(n)
		} else {
			p[k].Value = ast.Number(strconv.Itoa(n))
		}
	}
	return p
}
