package policy

import (
	"maps"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// profileModules leaves out, under a profile, the modules whose set rules
// all hold under another profile only and whose rules no module kept
// names.
func TestProfileModules(t *testing.T) {
	const head = "package chatlint.p\n\n"
	for _, tc := range []struct {
		name    string
		modules map[string]string
		want    []string // kept under openai
	}{
		{"another provider's", map[string]string{
			"a": `deny contains "x" if input.profile == "openai"`,
			"b": "deny contains \"y\" if {\n\tinput.profile == \"bedrock\"\n\tb_helper\n}\nb_helper if true",
		}, []string{"a"}},
		{"the guard written the other way round", map[string]string{
			"a": `deny contains "x" if true`,
			"b": `warn contains "y" if "mistral" == input.profile`,
		}, []string{"a"}},
		{"guarded by the run's profile", map[string]string{
			"a": `deny contains "x" if true`,
			"b": `deny contains "y" if input.profile == "openai"`,
		}, []string{"a", "b"}},
		{"a negated guard", map[string]string{
			"a": `deny contains "x" if true`,
			"b": `deny contains "y" if not input.profile == "bedrock"`,
		}, []string{"a", "b"}},
		{"a set rule without a guard", map[string]string{
			"a": `deny contains "x" if true`,
			"b": "deny contains \"y\" if input.profile == \"bedrock\"\ninfo contains \"z\" if true",
		}, []string{"a", "b"}},
		{"a helper a kept module calls", map[string]string{
			"a": `deny contains x if x := shared(1)`,
			"b": "deny contains \"y\" if input.profile == \"bedrock\"\nshared(n) := n",
		}, []string{"a", "b"}},
		{"a helper a module kept for it calls", map[string]string{
			"a": `deny contains x if x := mid`,
			"b": "deny contains \"y\" if input.profile == \"bedrock\"\nmid := deep",
			"c": "deny contains \"z\" if input.profile == \"together\"\ndeep := 1",
		}, []string{"a", "b", "c"}},
		{"no set rule", map[string]string{
			"a": `deny contains "x" if true`,
			"b": `unused := 1`,
		}, []string{"a", "b"}},
		{"data named", map[string]string{
			"a": `deny contains "x" if data.chatlint.p.k`,
			"b": "deny contains \"y\" if input.profile == \"bedrock\"\nk := 1",
		}, []string{"a", "b"}},
		{"a dataset set", map[string]string{
			"a": `dataset_deny contains "x" if true`,
			"b": `dataset_warn contains "y" if input.profile == "together"`,
		}, []string{"a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mods := map[string]*ast.Module{}
			for name, src := range tc.modules {
				m, err := ast.ParseModuleWithOpts(name, head+src+"\n", ast.ParserOptions{RegoVersion: ast.RegoV1})
				if err != nil {
					t.Fatal(err)
				}
				mods[name] = m
			}
			got := slices.Sorted(maps.Keys(profileModules(mods, "openai")))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("modules kept (-want +got):\n%s", diff)
			}
		})
	}
}
