package regoc

import "github.com/open-policy-agent/opa/v1/ast"

// The input may hold views: document.MessageValue (a normalized message)
// and astjson.ObjectView (a decoded object), ast.Objects that answer Get
// and Len from their members and build OPA's object the first time
// anything else is asked. Reading through them — a ref's lookups and
// iterations, count — needs no object; but OPA's own code does not know
// them (object.Equal(view) is false, object.Compare(view) panics). So a
// value leaves the closures' reads plain: compared, handed to a built-in,
// put in a set or an object, or emitted. Arrays may keep views: a view's
// hash is its object's, and whatever reads an array's elements as values
// goes through one of those doors.

// view is what both kinds of view have: the object they stand for, holding
// no view.
type view interface{ Materialize() ast.Object }

// composite reports whether t may hold a view.
func composite(t *ast.Term) bool {
	switch t.Value.(type) {
	case ast.Null, ast.Boolean, ast.Number, ast.String:
		return false
	}
	return true
}

// plain returns t with every view in it replaced by its object: t itself
// when it holds none.
func plain(t *ast.Term) *ast.Term {
	if !composite(t) || !holdsView(t.Value) {
		return t
	}
	return ast.NewTerm(plainValue(t.Value))
}

// holdsView reports whether x is a view or holds one.
func holdsView(x ast.Value) bool {
	switch v := x.(type) {
	case view:
		return true
	case *ast.Array:
		for i := range v.Len() {
			if e := v.Elem(i); composite(e) && holdsView(e.Value) {
				return true
			}
		}
	case ast.Object:
		return v.Until(func(_, e *ast.Term) bool { return composite(e) && holdsView(e.Value) })
	}
	// A set's elements went through plain when it was built.
	return false
}

// plainValue is x with its views built, x holding one (holdsView).
func plainValue(x ast.Value) ast.Value {
	switch v := x.(type) {
	case view:
		return v.Materialize()
	case *ast.Array:
		out := make([]*ast.Term, v.Len())
		for i := range out {
			out[i] = plain(v.Elem(i))
		}
		return ast.NewArray(out...)
	case ast.Object:
		kv := make([][2]*ast.Term, 0, v.Len())
		v.Foreach(func(k, e *ast.Term) { kv = append(kv, [2]*ast.Term{k, plain(e)}) })
		return ast.NewObject(kv...)
	}
	return x
}

// equal is x.Equal(y) on plain values. A composite value never equals a
// scalar, and is not built to be told so (a content array compared with
// null).
func equal(x, y *ast.Term) bool {
	cx, cy := composite(x), composite(y)
	if cx != cy {
		return false
	}
	if cx {
		x, y = plain(x), plain(y)
	}
	return x.Equal(y)
}
