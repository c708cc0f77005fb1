package yamlrule

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestSplitDoc checks which conditions move ahead: those on the document
// while every condition before them reads neither a let nor another path.
func TestSplitDoc(t *testing.T) {
	src := `rules:
  - id: r
    severity: error
    description: d
    given: messages[*]
    let:
      n: {join: 'messages[*]'}
    where:
      role: {in: [tool]}
      $document.profile: openai
      $n.count: {greater_than: 0}
      $document.format: chat
      $document.mode: {not: {same_as: role}}
    cases:
      - message: x
`
	rules := compileRules(t, src)
	r := rules[0]
	texts := func(cs []check) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.text)
		}
		return out
	}
	h := r.hoisted
	if diff := cmp.Diff([]string{"$document.profile"}, texts(h.where.doc)); diff != "" {
		t.Errorf("hoisted (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"$n.count", "$document.format", "$document.mode"}, texts(h.where.rest)); diff != "" {
		t.Errorf("left in the loop, role filter taken out (-want +got):\n%s", diff)
	}
	if h.filter == nil {
		t.Errorf("role: {in: [tool]} is no filter")
	}
}

// TestSameValue wants sameValue to agree with ast.Compare on values of
// every kind, strings and booleans against everything included.
func TestSameValue(t *testing.T) {
	vals := []string{`"a"`, `"b"`, `""`, `true`, `false`, `null`, `1`, `1.0`, `2`, `[1]`, `{"a": 1}`, `["a"]`}
	for _, x := range vals {
		for _, y := range vals {
			v, w := ast.MustParseTerm(x).Value, ast.MustParseTerm(y).Value
			if got, want := sameValue(v, w), ast.Compare(v, w) == 0; got != want {
				t.Errorf("sameValue(%s, %s) = %v, ast.Compare says %v", x, y, got, want)
			}
		}
	}
}
