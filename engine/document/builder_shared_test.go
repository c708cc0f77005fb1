package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSharedMessages: under a field set that keeps nothing of a message's
// own, messages without calls or ids of their own are one shared term per
// role, within a record and across records; a message with a tool call, or
// a field set reading the index, builds its own.
func TestSharedMessages(t *testing.T) {
	rec := `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"},
		{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "x"}, {"role": "assistant", "content": "done"}]}`
	msgs := func(f *Fields) *ast.Array {
		return one(t, Chat, Options{Fields: f}, rec).Value.Get(KeyMessages).Value.(*ast.Array)
	}
	f := fieldsOf("messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id")
	a, b := msgs(f), msgs(f)
	for _, i := range []int{0, 1, 4} {
		if a.Elem(i) != b.Elem(i) {
			t.Errorf("message %d is not shared across records: %v", i, a.Elem(i))
		}
	}
	if a.Elem(0) != a.Elem(1) {
		t.Errorf("two user messages of one record are two terms")
	}
	for _, i := range []int{2, 3} {
		if a.Elem(i) == b.Elem(i) {
			t.Errorf("message %d, with a call or tool_call_id, is shared: %v", i, a.Elem(i))
		}
	}
	g := fieldsOf("messages.*.role", "messages.*.index")
	if a, b := msgs(g), msgs(g); a.Elem(0) == b.Elem(0) {
		t.Errorf("a message holding its index is shared: %v", a.Elem(0))
	}
}
