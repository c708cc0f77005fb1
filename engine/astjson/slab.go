package astjson

import "github.com/open-policy-agent/opa/v1/ast"

// slabs hands out terms and array element slices carved from larger blocks,
// so a document costs a handful of allocations for them instead of one per
// value. Blocks start small and double, which bounds the unused tail of the
// last block to about half of what was used.
//
// Against one allocation per term this saves instructions of Decode at the
// same number of bytes.
//
// A block stays alive while any term in it does. Blocks are therefore never
// carried over from one Decode call to the next: that would tie unrelated
// documents' lifetimes together.
type slabs struct {
	terms    []ast.Term
	elems    []*ast.Term
	nextTerm int
	nextPtr  int
	// made counts the terms and slices handed out, so that a builder can
	// tell whether a value it just built holds only shared terms.
	made int
	// recent, in a session's Slabs, shares its strings that repeat
	// (session_slabs.go).
	recent *recentStrings
	// strs are the terms of strings, each with room for its string's
	// header (stringTerm).
	strs    []stringTerm
	nextStr int
}

const (
	slabMin = 16
	slabMax = 512
)

func (s *slabs) term(v ast.Value) *ast.Term {
	if len(s.terms) == 0 {
		s.nextTerm = grow(s.nextTerm)
		s.terms = make([]ast.Term, s.nextTerm)
	}
	t := &s.terms[0]
	s.terms = s.terms[1:]
	s.made++
	t.Value = v
	return t
}

// slice returns a slice of length and capacity n, so an append by a later user
// of the array reallocates rather than writing into the neighbour's elements.
func (s *slabs) slice(n int) []*ast.Term {
	if len(s.elems) < n {
		s.nextPtr = grow(s.nextPtr)
		s.elems = make([]*ast.Term, max(n, s.nextPtr))
	}
	p := s.elems[:n:n]
	s.elems = s.elems[n:]
	s.made++
	return p
}

func grow(n int) int {
	if n == 0 {
		return slabMin
	}
	return min(2*n, slabMax)
}
