package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestRecycledMessagesLeaveDocumentsAlone: building a record reuses the
// message slice of the record before it; the earlier document keeps its
// value (its messages and calls arrays are not written to), the later one
// is the same as when built first, under the whole field set and the
// default packs' (every member).
func TestRecycledMessagesLeaveDocumentsAlone(t *testing.T) {
	withCalls := `{"messages": [{"role": "user", "content": "q"},
		{"role": "assistant", "content": "", "stop_reason": "tool_use", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "{\"a\": 1}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "r1"}, {"role": "tool", "tool_call_id": "c2", "content": "r2"},
		{"role": "assistant", "content": "done"}]}`
	plain := `{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
		{"role": "assistant", "content": "a", "tool_calls": [{"id": "c9", "type": "function", "function": {"name": "h", "arguments": "{}"}}]}]}`
	for name, f := range map[string]*Fields{
		"whole":        nil,
		"every member": NewFields(func(...string) bool { return true }),
	} {
		opts := Options{Fields: f}
		a := one(t, Chat, opts, withCalls).Value
		before := a.String()
		b := one(t, Chat, opts, plain).Value
		firstB := b.String()
		for range 3 {
			one(t, Chat, opts, withCalls)
			one(t, Chat, opts, plain)
		}
		if diff := cmp.Diff(before, a.String()); diff != "" {
			t.Errorf("%s: the first document changed after later records (-before +after):\n%s", name, diff)
		}
		if diff := cmp.Diff(firstB, one(t, Chat, opts, plain).Value.String()); diff != "" {
			t.Errorf("%s: a record built again after others differs (-first +again):\n%s", name, diff)
		}
	}
}

// TestPutMessagesZeroes: a slice given back holds no pointer into the
// record it was read from, so the pool pins no document.
func TestPutMessagesZeroes(t *testing.T) {
	p, ms := getMessages(2)
	ms = append(ms, message{raw: ast.StringTerm("x"), role: "user", calls: []*ast.Term{ast.StringTerm("c")}}, message{text: "t"})
	putMessages(p, ms)
	for i, m := range ms {
		if !cmp.Equal(m, message{}, cmp.AllowUnexported(message{}), cmp.Comparer(func(a, b *ast.Term) bool { return a == b }), cmp.Comparer(func(a, b *Fields) bool { return a == b })) {
			t.Errorf("message %d given back is not zero: %+v", i, m)
		}
	}
	if len(*p) != 0 {
		t.Errorf("pooled slice has length %d, want 0", len(*p))
	}
}
