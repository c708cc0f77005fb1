package yamlrule

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

// TestMemberRowsNamed runs relational and plain rules that read members of
// the document, of the elements and of their messages, and wants every row
// the walks and lookups name to be the row of the object they look at (a
// wrong one would still answer right, but start the row again).
func TestMemberRowsNamed(t *testing.T) {
	src := `rules:
  - id: plain
    severity: error
    description: d
    given: messages[*].tool_calls[*]
    where:
      $message.role: assistant
      $document.format: chat
    assert:
      name: {not_empty: true}
  - id: rel
    severity: error
    description: d
    given: messages[*]
    let:
      calls: {join: 'messages[*].tool_calls[*]', where: {$message.role: assistant}, on: {tool_call_id: id}}
    where:
      role: tool
      $document.profile: {not_equals: export}
    cases:
      - when: {$calls.count: 0, $previous.role: {not_equals: system}}
        message: 'orphan {{index}} after {{$previous.role}}'
`
	rules := compileRules(t, src)
	doc := chatDoc(t, `{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"{}"}},{"id":"b","type":"function","function":{"name":"","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":"1"},{"role":"tool","tool_call_id":"x","content":"2"}]}`)
	var c Cache
	c.Reset(doc.Value)
	var hits []Hit
	for _, r := range rules {
		hits = r.EvalIn(doc.Value, &c, hits)
	}
	if len(hits) != 2 {
		t.Errorf("hits = %v, want the call without a name and the orphan result", hits)
	}
	if c.members.restarts != 0 {
		t.Errorf("%d rows were named for another object than they held", c.members.restarts)
	}
}

// TestMemberRowsResetClears fills rows (one of them started again for
// another object) and wants reset to leave no member of the last document
// anywhere in the rows' storage: reset clears only the slots it wrote.
func TestMemberRowsResetClears(t *testing.T) {
	role, text := parsePath("role")[0], parsePath("text")[0]
	a := ast.NewObject(ast.Item(ast.StringTerm("role"), ast.StringTerm("user")), ast.Item(ast.StringTerm("text"), ast.StringTerm("hi")))
	b := ast.NewObject(ast.Item(ast.StringTerm("role"), ast.StringTerm("tool")))
	var m memberRows
	for doc := 0; doc < 3; doc++ {
		m.reset()
		for _, row := range []int{0, 3, 7, 3} {
			o := a
			if doc == 1 && row == 3 {
				o = b // a second object in row 3: the row starts again
			}
			m.get(o, row, role.key, role.slot)
			m.get(o, row, text.key, text.slot)
			if doc == 1 {
				m.get(a, row, text.key, text.slot)
			}
		}
		if m.get(a, 7, text.key, text.slot) == nil {
			t.Fatal("text of row 7 missing")
		}
	}
	m.reset()
	for i, x := range m.terms[:cap(m.terms)] {
		if x != nil {
			t.Errorf("slot %d still holds %v after reset", i, x)
		}
	}
}
