package yamlrule

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestRoleIndex: the messages a role condition passes and those of one
// role, read from the document's role index, are the ones a test of each
// message's role finds: with roles that repeat, roles that are not strings
// or absent, more distinct roles than the index groups, and from one
// document to the next on one cache.
func TestRoleIndex(t *testing.T) {
	conds := []string{"assistant", "{in: [user, tool]}", "{not: {in: [assistant]}}", "{matches: '^r'}", "{type: string}", "absent", "{in: [nobody]}"}
	var src strings.Builder
	src.WriteString("rules:\n")
	for i, c := range conds {
		fmt.Fprintf(&src, "  - id: r%d\n    severity: error\n    description: d\n    given: messages[*]\n    where: {role: %s}\n    assert: {content: absent}\n", i, c)
	}
	rules := compileRules(t, src.String())
	many := `[{"role": "assistant"}`
	for i := range maxRoleClasses + 4 {
		many += fmt.Sprintf(`, {"role": "r%d"}, {"role": "assistant"}`, i)
	}
	many += `, {"role": "r0"}, {"role": "r19"}]`
	docs := []string{
		`[{"role": "user"}, {"role": "assistant"}, {"role": "tool"}, {"role": "assistant"}, {"role": "user"}]`,
		`[{"role": "assistant"}, {"role": "assistant"}]`,
		`[{"role": 1}, {}, "x", {"role": null}, {"role": "user"}, {"role": ["assistant"]}, {"role": "assistant"}]`,
		`[]`,
		many,
		`[{"role": "tool"}, {"role": "system"}]`,
	}
	var cache Cache
	for _, d := range docs {
		doc := ast.NewObject(ast.Item(ast.StringTerm("messages"), ast.MustParseTerm(d)))
		cache.Reset(doc)
		msgs := ast.MustParseTerm(d).Value.(*ast.Array)
		roleOf := func(i int) ast.Value {
			if o, ok := msgs.Elem(i).Value.(ast.Object); ok {
				if r := o.Get(ast.StringTerm("role")); r != nil {
					return r.Value
				}
			}
			return nil
		}
		for k, r := range rules {
			f := r.hoisted.filter
			if f == nil {
				t.Fatalf("rule of %s: no role filter", conds[k])
			}
			want := []int{}
			for i := range msgs.Len() {
				var sc scope
				if ok, _ := f.cond.holds(roleOf(i), nil, &sc); ok {
					want = append(want, i)
				}
			}
			if diff := cmp.Diff(want, cache.rolesPassing(f)); diff != "" {
				t.Errorf("%s, role %s (-want +got):\n%s", d, conds[k], diff)
			}
		}
		for _, role := range []string{"assistant", "user", "r19", "nobody"} {
			want := []int{}
			for i := range msgs.Len() {
				if s, ok := roleOf(i).(ast.String); ok && string(s) == role {
					want = append(want, i)
				}
			}
			if diff := cmp.Diff(want, cache.messagesOf(role)); diff != "" {
				t.Errorf("%s, messages of %s (-want +got):\n%s", d, role, diff)
			}
		}
	}
}
