package policy

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// readsOneMember is what compiling asked of each module once per member, a
// walk each: whether m may read input.<member>.
func readsOneMember(m *ast.Module, member string) bool {
	found := false
	input := ast.InputRootDocument.Value.(ast.Var)
	vis := ast.NewGenericVisitor(func(x any) bool {
		if found {
			return true
		}
		switch x := x.(type) {
		case ast.Ref:
			if len(x) == 0 || x[0].Value != ast.Value(input) {
				return false
			}
			if len(x) == 1 {
				found = true
			} else if s, ok := x[1].Value.(ast.String); !ok || string(s) == member {
				found = true
			}
			return true
		case ast.Var:
			if x == input {
				found = true
			}
		}
		return false
	})
	vis.Walk(m)
	return found
}

// TestRegoInputReadsOneWalk: the one walk of a module finds, for every
// member, what a walk per member found: on hand-written modules and every
// built-in one.
func TestRegoInputReadsOneWalk(t *testing.T) {
	srcs := []string{
		"package chatlint.p\ndeny contains 1 if input.lookup.x",
		"package chatlint.p\ndeny contains 1 if input.tokens > 1",
		"package chatlint.p\ndeny contains 1 if { x := input; x.tokens }",
		"package chatlint.p\ndeny contains 1 if { k := \"lookup\"; input[k] }",
		"package chatlint.p\ndeny contains 1 if data.x[input.distinct]",
		"package chatlint.p\ndeny contains 1 if { input.messages[_].role == \"user\"; input.record_types }",
		"package chatlint.p\nf(x) := x.lookup\ndeny contains 1 if f(input.messages)",
		"package chatlint.p\ndeny contains 1 if true",
	}
	var mods []*ast.Module
	for _, s := range srcs {
		mods = append(mods, ast.MustParseModuleWithOpts(s, ast.ParserOptions{RegoVersion: ast.RegoV1}))
	}
	sets := fieldPackSets(t)
	for _, p := range append(sets["every built-in pack"], sets["../../fixtures/packs/team"]...) {
		for _, f := range append(append([]File{}, p.Rego...), p.Tests...) {
			if r := parseRegoFile(f); r.m != nil {
				mods = append(mods, r.m)
			}
		}
	}
	members := append([]string{"lookup", "tokens", "messages", "raw", "format", "nothing"}, contentMembers...)
	for _, m := range mods {
		in := regoInputReads(m)
		for _, member := range members {
			if got, want := in.reads(member), readsOneMember(m, member); got != want {
				t.Errorf("%s: reads input.%s %v, a walk for it says %v", m.Package.Location.File, member, got, want)
			}
		}
	}
}
