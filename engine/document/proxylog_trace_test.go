package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// The trace tokens are the reference converter's, so check and convert
// report the same role-sequence mismatches.
func TestRoleTraceTokens(t *testing.T) {
	tests := []struct {
		name, msgs string
		want       []string
	}{
		{"known roles", `[{"role":"system"},{"role":"developer"},{"role":"user","content":"q"},{"role":"tool","content":"r"}]`, []string{"S", "S", "U", "T"}},
		{"assistant text, calls, both, neither",
			`[{"role":"assistant","content":"a"},{"role":"assistant","tool_calls":[{}]},{"role":"assistant","content":"a","tool_calls":[{}]},{"role":"assistant","content":"","tool_calls":[]}]`,
			[]string{"Ac", "At", "Act", "A"}},
		{"white space is no text", `[{"role":"assistant","content":" \n\u3000"}]`, []string{"A"}},
		{"text parts joined", `[{"role":"assistant","content":[{"type":"image"},{"type":"text","text":"x"}]}]`, []string{"Ac"}},
		{"parts without text are no text", `[{"role":"assistant","content":[{"type":"image_url","image_url":{}}]}]`, []string{"A"}},
		{"tool results as user", `[{"role":"user","content":[{"type":"tool_result","content":"r"}]},{"role":"user","content":[{"type":"tool_result"},{"type":"text","text":"x"}]},{"role":"user","content":[]}]`,
			[]string{"R", "U", "U"}},
		{"other roles: first letter in upper case", `[{"role":"User"},{"role":"critic"},{"role":"éclair"}]`, []string{"U", "C", "É"}},
		{"no role, no token", `[{"role":""},{"content":"x"},{"role":1},{"role":"user"}]`, []string{"U"}},
	}
	for _, tt := range tests {
		v, err := ast.ValueFromReader(strings.NewReader(tt.msgs))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		roleTrace(v.(*ast.Array)).Value.(*ast.Array).Foreach(func(t *ast.Term) { got = append(got, string(t.Value.(ast.String))) })
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
