package policy_test

import (
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
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

// TestMessageViewsForOpenSets: a pack left to topdown takes the views only
// from the documents its rules apply to: the default packs' Rego on
// topdown (batch, finetune) applies to no Claude Code session, whose
// claude-code pack is compiled, so a session keeps its views.
func TestMessageViewsForOpenSets(t *testing.T) {
	const topdown = `package chatlint.other

# METADATA
# description: a rule on topdown, for codex rollouts.
# custom:
#   id: other
#   severity: warning
#   formats: [codex]
deny contains {"rule": "other", "msg": "x"} if {
	some m in input.messages
	m.role == "tool" with input.unused as 1
}
`
	const compiled = `package chatlint.team

# METADATA
# description: a compiled rule.
# custom:
#   id: team
#   severity: warning
deny contains {"rule": "team", "msg": "x"} if {
	some m in input.messages
	m.role == "tool"
}
`
	packs := []*policy.Pack{
		{Name: "team", Rego: []policy.File{{Name: "team.rego", Source: []byte(compiled)}}},
		{Name: "other", Rego: []policy.File{{Name: "other.rego", Source: []byte(topdown)}}},
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for format, want := range map[string]bool{"chat": true, "claude-code": true, "codex": false} {
		if got := eng.MessageViewsFor(format, ""); got != want {
			t.Errorf("MessageViewsFor(%s) = %v, want %v (compiled %v)", format, got, want, policy.RegoCompiled(eng))
		}
	}
	all, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	if eng, err = policy.Compile(context.Background(), all, policy.Options{}); err != nil {
		t.Fatal(err)
	}
	if !eng.MessageViewsFor("claude-code", "") {
		t.Errorf("the default packs build a Claude Code session's messages as OPA objects (compiled %v)", policy.RegoCompiled(eng))
	}
}
