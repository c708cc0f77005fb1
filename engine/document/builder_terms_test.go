package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestNameTerms: the shared terms of format names and modes are the
// strings themselves, every registered format and mode has one (a format
// left out would quietly cost a term per document again), and a string
// without one still gets its own term.
func TestNameTerms(t *testing.T) {
	names := []string{modeInline, modeStructured}
	for _, a := range Adapters() {
		names = append(names, string(a.Format))
	}
	for _, s := range names {
		got := nameTerm(s)
		if got != nameTerm(s) {
			t.Errorf("%q: two calls give two terms, want one shared term", s)
		}
		if !got.Equal(ast.StringTerm(s)) {
			t.Errorf("%q: shared term is %v", s, got)
		}
	}
	for _, s := range []string{"", "some-future-mode"} {
		if got := nameTerm(s); !got.Equal(ast.StringTerm(s)) {
			t.Errorf("%q: term is %v", s, got)
		}
	}
}

// TestFileTerm: the file term is shared by consecutive documents of one
// file and is never a stale one when files alternate (as documents of
// several files do when they are built concurrently).
func TestFileTerm(t *testing.T) {
	a := fileTerm("a.jsonl")
	if fileTerm("a.jsonl") != a {
		t.Errorf("consecutive documents of one file do not share its term")
	}
	for _, f := range []string{"b.jsonl", "a.jsonl", "", "b.jsonl", "a.jsonl"} {
		if got := fileTerm(f); !got.Equal(ast.StringTerm(f)) {
			t.Errorf("fileTerm(%q) = %v", f, got)
		}
	}
}

// TestMessageTermsOwnBlockSlots: a record's message terms come from one
// block; each message is its own term holding its own object, in order,
// under every field set (whole, a field set that shares messages and one
// that keeps each message's own members), and the document equals the one
// built member by member.
func TestMessageTermsOwnBlockSlots(t *testing.T) {
	rec := `{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"},
		{"role": "assistant", "content": "a", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "x"}, {"role": "user", "content": "u2"}]}`
	for name, f := range map[string]*Fields{
		"whole":  nil,
		"shared": fieldsOf("messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id"),
		"own":    fieldsOf("messages.*.role", "messages.*.text", "messages.*.index", "messages.*.line"),
	} {
		msgs := one(t, Chat, Options{Fields: f}, rec).Value.Get(KeyMessages).Value.(*ast.Array)
		var texts []string
		for i := 0; i < msgs.Len(); i++ {
			o := msgs.Elem(i).Value.(ast.Object)
			if f == nil || f.text {
				texts = append(texts, string(o.Get(keyText).Value.(ast.String)))
			}
			if f == nil || f.msgIndex {
				if got := o.Get(KeyIndex); !got.Equal(ast.IntNumberTerm(i)) {
					t.Errorf("%s: message %d has index %v", name, i, got)
				}
			}
			for j := 0; j < i; j++ {
				if msgs.Elem(j) == msgs.Elem(i) && (f == nil || f.shared == nil) {
					t.Errorf("%s: messages %d and %d are one term", name, j, i)
				}
			}
		}
		if f == nil || f.text {
			if diff := cmp.Diff([]string{"s", "u", "a", "x", "u2"}, texts); diff != "" {
				t.Errorf("%s: texts (-want +got):\n%s", name, diff)
			}
		}
	}
}
