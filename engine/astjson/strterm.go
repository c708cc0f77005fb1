package astjson

import (
	"unsafe"

	"github.com/open-policy-agent/opa/v1/ast"
)

// A string term's value is an ast.String in an interface, and Go puts a
// string in an interface by allocating a copy of its header (16 bytes)
// beside the allocation of its bytes: two allocations for every string a
// record holds that is not interned. The decoder carves the term and room
// for the header from one block instead (stringTerm), and points the
// interface at that header: an interface of a type that is not a pointer
// holds a pointer to its value, which nobody writes through, and the
// header here is written once, before the term is handed out.

// stringTerm is a string term and its string's header.
type stringTerm struct {
	term ast.Term
	str  ast.String
}

// stringItab is the type word of an ast.Value holding an ast.String.
var stringItab = func() unsafe.Pointer {
	var v ast.Value = ast.String("")
	return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[0]
}()

// str returns a term of string b, carved from the slabs.
func (s *slabs) str(b []byte) *ast.Term {
	if len(s.strs) == 0 {
		// From four, doubling: a block's unused tail stays with the
		// record, and each record in flight has one.
		s.nextStr = min(max(2*s.nextStr, 4), slabMax/2)
		s.strs = make([]stringTerm, s.nextStr)
	}
	e := &s.strs[0]
	s.strs = s.strs[1:]
	s.made++
	e.str = ast.String(b)
	v := (*[2]unsafe.Pointer)(unsafe.Pointer(&e.term.Value))
	v[0], v[1] = stringItab, unsafe.Pointer(&e.str)
	return &e.term
}
