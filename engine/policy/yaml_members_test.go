package policy

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestMemberRows checks that the per-document rows answer exactly what the
// object's Get answers: a row handed another object starts again, a missing
// member stays missing, and a reset forgets the last document.
func TestMemberRows(t *testing.T) {
	role, text := parsePath("role")[0], parsePath("text")[0]
	obj := func(r string) ast.Object { return ast.NewObject(ast.Item(ast.StringTerm("role"), ast.StringTerm(r))) }
	a := ast.NewObject(ast.Item(ast.StringTerm("role"), ast.StringTerm("user")), ast.Item(ast.StringTerm("text"), ast.StringTerm("hi")))
	b, c := obj("assistant"), obj("tool")
	var m memberRows
	m.reset()
	get := func(o ast.Object, row int, s seg) string {
		t := m.get(o, row, s.key, s.slot)
		if t == nil {
			return "<absent>"
		}
		return string(t.Value.(ast.String))
	}
	got := []string{
		get(a, 1, role),
		get(a, 1, role), // from the row
		get(a, 1, text),
		get(b, 1, role), // same row, another object
		get(b, 1, text),
		get(c, maxMemberRows, role), // past the rows: looked up directly
	}
	m.reset()
	got = append(got, get(c, 1, role)) // a new document
	want := []string{"user", "user", "hi", "assistant", "<absent>", "tool", "tool"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("members (-want +got):\n%s", d)
	}
	for i, o := range m.objs {
		if o != nil && o != c {
			t.Errorf("row %d still holds an object of the last document", i)
		}
	}
}
