package builtins

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/chatlint/chatlint/engine/document"
)

// call_schema_errors visits the messages lookup.calls names; on the same
// document without a lookup it visits every message, and both give the
// violations of the calls that break their tool's schema.
func TestCallSchemaErrors(t *testing.T) {
	rec := `{"messages": [{"role": "user", "content": "Weather?"},
		{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "get_weather", "arguments": "{\"city\": 1}"}},
			{"id": "b", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}},
			{"id": "c", "function": {"name": "other", "arguments": "{}"}}, {"id": "d", "function": {"name": "get_weather", "arguments": "{not json"}}]},
		{"role": "tool", "tool_call_id": "a", "content": "?"},
		{"role": "assistant", "content": "And Rome?"},
		{"role": "assistant", "tool_calls": [{"id": "e", "function": {"name": "get_weather", "arguments": "{\"town\": \"Rome\"}"}}]}],
		"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": ` + weatherSchema + `}},
			{"type": "function", "function": {"name": "other"}}]}`
	v, err := ast.ParseTerm(rec)
	if err != nil {
		t.Fatal(err)
	}
	d := document.NewBuilder(document.Chat, "f.jsonl", document.Options{}).Add(1, v.Value.(ast.Object))
	want := `[[1, 0, [{"path": "/city", "msg": "got number, want string"}]],
		[4, 0, [{"path": "", "msg": "additional properties 'town' not allowed"}, {"path": "", "msg": "missing property 'city'"}]]]`
	withoutLookup := ast.NewObject()
	d.Value.Foreach(func(k, v *ast.Term) {
		if !k.Equal(ast.StringTerm("lookup")) {
			withoutLookup.Insert(k, v)
		}
	})
	for name, doc := range map[string]ast.Object{"lookup": d.Value, "no lookup": withoutLookup} {
		got, err := callSchemaErrors(rego.BuiltinContext{}, ast.NewTerm(doc))
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(mustValue(t, want).String(), got.String()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}
