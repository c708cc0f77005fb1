package policy_test

import (
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/policy"
)

// TestMessageViewsForCompiledRego: documents keep their messages as views
// where the compiled closures evaluate every Rego set (they read views as
// they are), and not where topdown evaluates one (it would build every
// view into its object).
func TestMessageViewsForCompiledRego(t *testing.T) {
	const head = "package chatlint.team\n\n# METADATA\n# description: a team rule.\n# custom:\n#   id: team\n#   severity: warning\n"
	cases := []struct {
		name, body string
		want       bool
	}{
		{"compiled", `deny contains {"rule": "team", "msg": "x"} if {
	some m in input.messages
	m.role == "tool"
}`, true},
		{"on topdown", `deny contains {"rule": "team", "msg": "x"} if {
	some m in input.messages
	m.role == "tool" with input.unused as 1
}`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := &policy.Pack{Name: "team", Rego: []policy.File{{Name: "team.rego", Source: []byte(head + c.body + "\n")}}}
			eng, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := eng.MessageViewsFor("chat", ""); got != c.want {
				t.Errorf("MessageViewsFor(chat) = %v, want %v (compiled %v)", got, c.want, policy.RegoCompiled(eng))
			}
		})
	}
}
