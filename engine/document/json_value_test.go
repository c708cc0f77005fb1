package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// JSONValue gives what ast.JSON gives for a value's plain form, views and
// MessageValues included, and builds none of their objects.
func TestJSONValue(t *testing.T) {
	view := func() *astjson.ObjectView {
		block := astjson.NewObjectView([2]*ast.Term{ast.StringTerm("type"), ast.StringTerm("text")},
			[2]*ast.Term{ast.StringTerm("text"), ast.StringTerm("hi")})
		return astjson.NewObjectView([2]*ast.Term{ast.StringTerm("role"), ast.StringTerm("user")},
			[2]*ast.Term{ast.StringTerm("content"), ast.ArrayTerm(ast.NewTerm(block), ast.IntNumberTerm(7))},
			[2]*ast.Term{ast.StringTerm("n"), ast.NullTerm()},
			// A member given twice keeps its last value, as OPA's object does.
			[2]*ast.Term{ast.StringTerm("n"), ast.FloatNumberTerm(1.5)})
	}
	message := func() *MessageValue {
		m := &MessageValue{}
		m.slots[slotIndex] = ast.IntNumberTerm(0)
		m.slots[slotRole] = ast.StringTerm("user")
		m.slots[slotRaw] = ast.NewTerm(view())
		return m
	}
	inserted := message()
	inserted.Insert(ast.StringTerm("extra"), ast.BooleanTerm(true))
	tests := []struct {
		name string
		v    func() ast.Value
	}{
		{"a plain object", func() ast.Value {
			return ast.MustParseTerm(`{"a": [1, "x", null, true, {"b": 2.50}], "c": {}}`).Value
		}},
		{"a view holding a view", func() ast.Value { return view() }},
		{"a message", func() ast.Value { return message() }},
		{"a message a member was inserted into", func() ast.Value { return inserted }},
		{"an object holding an array of messages", func() ast.Value {
			return ast.NewObject([2]*ast.Term{ast.StringTerm("messages"), ast.ArrayTerm(ast.NewTerm(message()), ast.NewTerm(message()))},
				[2]*ast.Term{ast.StringTerm("raw"), ast.NewTerm(view())})
		}},
		{"a set", func() ast.Value { return ast.NewSet(ast.StringTerm("a"), ast.IntNumberTerm(1)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.v()
			before := builtViews(v)
			got, err := JSONValue(v)
			if err != nil {
				t.Fatal(err)
			}
			if built := builtViews(v) - before; built > 0 {
				t.Errorf("%d view(s) built", built)
			}
			want, err := ast.JSON(Plain(deepPlain(v)))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("JSONValue (-ast.JSON of the plain value +got):\n%s", diff)
			}
		})
	}
	if _, err := JSONValue(ast.VarTerm("x").Value); err == nil {
		t.Error("a variable: no error, want the one ast.JSON gives")
	}
}

// builtViews counts the views in v whose objects were built (a message
// inserted into was built by its Insert, and holds its raw built).
func builtViews(v ast.Value) int {
	n := 0
	switch x := v.(type) {
	case *MessageValue:
		if !x.inserted && x.Object != nil {
			n++
		}
		for _, t := range x.slots {
			if t != nil {
				n += builtViews(t.Value)
			}
		}
	case *astjson.ObjectView:
		if x.Built() {
			n++
		}
		x.ForeachMember(func(_, t *ast.Term) { n += builtViews(t.Value) })
	case *ast.Array:
		for i := range x.Len() {
			n += builtViews(x.Elem(i).Value)
		}
	case ast.Object:
		x.Foreach(func(_, t *ast.Term) { n += builtViews(t.Value) })
	}
	return n
}

// deepPlain is v with every view in it replaced by its object, wherever
// it is (Plain looks where a document has them).
func deepPlain(v ast.Value) ast.Value {
	switch x := v.(type) {
	case *MessageValue:
		return x.Materialize()
	case *astjson.ObjectView:
		return x.Materialize()
	case *ast.Array:
		out := make([]*ast.Term, x.Len())
		for i := range out {
			out[i] = ast.NewTerm(deepPlain(x.Elem(i).Value))
		}
		return ast.NewArray(out...)
	case ast.Object:
		var kvs [][2]*ast.Term
		x.Foreach(func(k, t *ast.Term) { kvs = append(kvs, [2]*ast.Term{k, ast.NewTerm(deepPlain(t.Value))}) })
		return ast.NewObject(kvs...)
	}
	return v
}
