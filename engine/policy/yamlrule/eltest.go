package yamlrule

import (
	"cmp"

	"github.com/open-policy-agent/opa/v1/ast"
)

// elTest is a condition's test that reads more than the value: another
// path of the element (same_as, a comparison with a path, extends) or a
// condition of its own (not). It is data the evaluator switches on rather
// than a closure, so that the scope it reads is passed by pointer without
// escaping to the heap: Go's escape analysis takes every argument of a call
// through a function value to escape.
type elTest struct {
	kind elKind
	not  *condition     // elNot: the condition that must fail
	path []seg          // elSame, elExtends: the other path; elCompare: the path of the number, or nil
	num  ast.Value      // elCompare: the number compared with when path is nil
	want func(int) bool // elCompare: what the comparison of the value with the number must give
	eqs  []equivalence  // elExtends: the runs that may stand for others
}

type elKind uint8

const (
	elNot elKind = iota + 1
	elSame
	elCompare
	elExtends
)

// holds runs the test on v, the value of its path on the element el.
func (t *elTest) holds(v, el ast.Value, sc *scope) bool {
	switch t.kind {
	case elNot:
		return !t.not.passes(v, el, sc)
	case elSame:
		w := lookupValue(el, t.path, sc)
		return v != nil && w != nil && sameAs(v, w)
	case elCompare:
		x, ok := v.(ast.Number)
		if !ok {
			return false
		}
		arg := t.num
		if t.path != nil {
			arg = lookupValue(el, t.path, sc)
		}
		y, ok := arg.(ast.Number)
		if !ok {
			return false
		}
		if a, ok := x.Int(); ok { // the common case, without ast.Compare's big numbers
			if b, ok := y.Int(); ok {
				return t.want(cmp.Compare(a, b))
			}
		}
		return t.want(ast.Compare(x, y))
	case elExtends:
		later, ok := listOf(v)
		if !ok {
			return false
		}
		earlier, ok := listOf(lookupValue(el, t.path, sc))
		return ok && extends(earlier, later, t.eqs)
	}
	return false
}

// readsElement reports whether the test reads anything but the value: a
// path of the element, or a scope.
func (t *test) readsElement() bool {
	switch {
	case t.el == nil:
		return false
	case t.el.kind == elNot:
		return t.el.not.readsElement()
	case t.el.kind == elCompare:
		return t.el.path != nil
	}
	return true
}

// readsElement reports whether any test of c reads more than the value.
func (c *condition) readsElement() bool {
	for i := range c.tests {
		if c.tests[i].readsElement() {
			return true
		}
	}
	return false
}

// sameValue is ast.Compare(v, w) == 0 for two values neither nil, without
// its type switches when w is a string or a boolean (a string or boolean
// only equals a value of its own type) or both are integers: equals, in and
// the keys of joins compare roles, names, ids, counts and indexes.
func sameValue(v, w ast.Value) bool {
	switch w := w.(type) {
	case ast.String:
		s, ok := v.(ast.String)
		return ok && s == w
	case ast.Boolean:
		b, ok := v.(ast.Boolean)
		return ok && b == w
	case ast.Number: // counts and ranks: integers, compared without ast.Compare's big numbers
		if x, ok := v.(ast.Number); ok {
			if x == w { // the same text: the same number
				return true
			}
			if a, ok := x.Int64(); ok {
				if b, ok := w.Int64(); ok {
					return a == b
				}
			}
		}
	}
	return compareValues(v, w) == 0
}
