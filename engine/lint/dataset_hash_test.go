package lint

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// Two records are the same example exactly when their canonical forms
// agree: the top-level id left out, members in key order, every value with
// its type and its text as read.
func TestContentHashSameExample(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"key order", `{"a": 1, "b": [true, null]}`, `{"b": [true, null], "a": 1}`, true},
		{"top-level id", `{"id": "x", "m": "hi"}`, `{"m": "hi", "id": "y"}`, true},
		{"nested key order", `{"m": [{"role": "user", "content": "Hi"}]}`, `{"m": [{"content": "Hi", "role": "user"}]}`, true},
		{"nested id counts", `{"m": {"id": 1}}`, `{"m": {"id": 2}}`, false},
		{"string or number", `{"a": "1"}`, `{"a": 1}`, false},
		{"number as written", `{"a": 1}`, `{"a": 1.0}`, false},
		{"true or false", `{"a": true}`, `{"a": false}`, false},
		{"null or empty string", `{"a": null}`, `{"a": ""}`, false},
		{"list bounds", `{"a": [["x"], "y"]}`, `{"a": [["x", "y"]]}`, false},
		{"object bounds", `{"a": {"b": {}, "c": 1}}`, `{"a": {"b": {"c": 1}}}`, false},
		{"key or value", `{"ab": ""}`, `{"a": "b"}`, false},
		{"list or object", `{"a": []}`, `{"a": {}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := contentHash(object(t, tt.a)), contentHash(object(t, tt.b))
			if (a == b) != tt.same {
				t.Errorf("contentHash(%s) == contentHash(%s) is %v, want %v", tt.a, tt.b, a == b, tt.same)
			}
		})
	}
}

// The fold hashes every record of a file under a profile with dataset
// rules: the canonical form goes to the digest without a string or a term
// per value, so a record costs a few allocations, not one per value.
func TestContentHashAllocations(t *testing.T) {
	o := object(t, `{"id": "a", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"x\": 1}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "42"}, {"role": "assistant", "content": "It is 42.", "weight": 1}],
		"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"x": {"type": "integer"}}}}}]}`)
	if n := testing.AllocsPerRun(100, func() { contentHash(o) }); n > 4 {
		t.Errorf("contentHash allocates %v times a record, want at most 4", n)
	}
}

func object(t *testing.T, s string) ast.Object {
	t.Helper()
	v, err := ast.ParseTerm(s)
	if err != nil {
		t.Fatal(err)
	}
	return v.Value.(ast.Object)
}

// TestContentHashOfViews: a record whose messages the decoder gave as views
// hashes as the same record of OPA objects, and hashing builds no view.
func TestContentHashOfViews(t *testing.T) {
	str := ast.StringTerm
	msg := func() [][2]*ast.Term {
		return [][2]*ast.Term{
			{str("role"), str("assistant")},
			{str("content"), ast.NullTerm()},
			{str("tool_calls"), ast.ArrayTerm(ast.ObjectTerm(
				[2]*ast.Term{str("id"), str("c1")},
				[2]*ast.Term{str("function"), ast.ObjectTerm([2]*ast.Term{str("name"), str("f")}, [2]*ast.Term{str("arguments"), str("{}")})},
			))},
		}
	}
	view := astjson.NewObjectView(msg()...)
	withViews := ast.NewObject([2]*ast.Term{str("id"), str("a")}, [2]*ast.Term{str("messages"), ast.ArrayTerm(ast.NewTerm(view))})
	plain := ast.NewObject([2]*ast.Term{str("messages"), ast.ArrayTerm(ast.ObjectTerm(msg()...))}, [2]*ast.Term{str("id"), str("b")})
	if got, want := contentHash(withViews), contentHash(plain); got != want {
		t.Errorf("hash of a record with message views %x, of the same record without %x", got, want)
	}
	if view.Built() {
		t.Error("hashing built the view's object")
	}
}
