package document

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// fieldsOf is a Fields that reads exactly the given paths and what lies on
// the way to them.
func fieldsOf(paths ...string) *Fields {
	return NewFields(func(path ...string) bool {
		q := strings.Join(path, ".")
		for _, p := range paths {
			if p == q || strings.HasPrefix(p, q+".") || strings.HasPrefix(q, p+".") {
				return true
			}
		}
		return false
	})
}

func keysOf(t *testing.T, v *ast.Term) []string {
	t.Helper()
	o, ok := v.Value.(ast.Object)
	if !ok {
		t.Fatalf("%v is not an object", v)
	}
	var out []string
	for _, k := range o.Keys() {
		out = append(out, string(k.Value.(ast.String)))
	}
	sort.Strings(out)
	return out
}

const fieldsRecord = `{"id": "r1", "messages": [
	{"role": "user", "content": "list files"},
	{"role": "assistant", "content": [{"type": "text", "text": "Let me look."}], "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "shell", "arguments": "{\"cmd\": \"ls\"}"}}]},
	{"role": "tool", "tool_call_id": "call_1", "content": "a\nb"}],
	"tools": [{"type": "function", "function": {"name": "shell"}}]}`

// TestFieldsPrune: under Fields a chat document holds the members the
// rules read and no other, and Go code (placing a finding) reads the whole
// document all the same.
func TestFieldsPrune(t *testing.T) {
	cases := []struct {
		name               string
		fields             *Fields
		doc, message, call []string
	}{
		{"whole", nil,
			[]string{"entries", "file", "format", "id", "line", "lookup", "messages", "mode", "profile", "raw", "tools"},
			[]string{"has_content", "index", "line", "path", "raw", "role", "text", "tool_calls", "turn"},
			[]string{"arguments", "has_input", "id", "index", "name", "path"}},
		{"the bench pack", fieldsOf("messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id"),
			[]string{"format", "messages"},
			[]string{"role", "tool_calls"},
			[]string{"id"}},
		{"text and call names", fieldsOf("messages.*.text", "messages.*.tool_calls.*.name", "raw"),
			[]string{"format", "messages", "raw"},
			[]string{"text", "tool_calls"},
			[]string{"name"}},
		{"the lookup: calls whole", fieldsOf("lookup"),
			[]string{"format", "lookup"}, nil, nil},
		{"the floor", fieldsOf("format", "id"),
			[]string{"format", "id"}, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewBuilder(Chat, "f.jsonl", Options{Fields: c.fields}).Add(7, obj(t, fieldsRecord))
			if diff := cmp.Diff(c.doc, keysOf(t, ast.NewTerm(d.Value))); diff != "" {
				t.Errorf("document members (-want +got):\n%s", diff)
			}
			if c.message != nil {
				m := d.Value.Get(KeyMessages).Value.(*ast.Array).Elem(1)
				if diff := cmp.Diff(c.message, keysOf(t, m)); diff != "" {
					t.Errorf("message members (-want +got):\n%s", diff)
				}
				call := m.Value.(ast.Object).Get(KeyToolCalls).Value.(*ast.Array).Elem(0)
				if diff := cmp.Diff(c.call, keysOf(t, call)); diff != "" {
					t.Errorf("call members (-want +got):\n%s", diff)
				}
			}
			// Placing a finding reads what no rule did: the same as whole.
			for _, target := range []Target{"/messages/2", "/messages/1/tool_calls/0", "/tools/0"} {
				line, path, ok := d.Locate(target)
				want := map[Target]string{"/messages/2": "/messages/2", "/messages/1/tool_calls/0": "/messages/1/tool_calls/0", "/tools/0": "/tools/0"}[target]
				if line != 7 || path != want || !ok {
					t.Errorf("Locate(%s) = %d, %q, %v; want 7, %q, true", target, line, path, ok, want)
				}
			}
			if n := d.Messages().Len(); n != 3 {
				t.Errorf("Messages() has %d messages, want 3", n)
			}
		})
	}
}
