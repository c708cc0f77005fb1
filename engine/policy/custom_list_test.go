package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/engine/rule"
	"github.com/google/go-cmp/cmp"
)

// TestCustomLists reads the four lists of a Rego rule's METADATA custom
// block, and words what is wrong with each as before they shared a reader.
func TestCustomLists(t *testing.T) {
	rego := func(custom string) string {
		return "package chatlint.team\n\n# METADATA\n# description: d\n# custom:\n#   id: x\n" + custom +
			"deny contains {\"rule\": \"x\", \"msg\": \"x\"} if true\n"
	}
	good := rego("#   formats: [chat, contract]\n#   repairs: [a, b]\n#   profiles: [strict]\n#   modes: [inline]\n")
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"t.rego": good}))
	got := e.Rules()[0]
	want := rule.Rule{Formats: []string{"chat", "contract"}, Repairs: []string{"a", "b"}, Profiles: []string{"strict"}, Modes: []string{"inline"}}
	if d := cmp.Diff(want, rule.Rule{Formats: got.Formats, Repairs: got.Repairs, Profiles: got.Profiles, Modes: got.Modes}); d != "" {
		t.Errorf("lists (-want +got):\n%s", d)
	}
	for _, c := range []struct{ custom, want string }{
		{"#   formats: chat\n", "custom.formats: want a list of formats ("},
		{"#   formats: [csv]\n", "custom.formats: unknown format csv (want "},
		{"#   repairs: a\n", "custom.repairs: want a list of rule ids"},
		{"#   repairs: [\"\"]\n", "custom.repairs: want a list of rule ids, not "},
		{"#   profiles: strict\n", "custom.profiles: want a list of profile names"},
		{"#   profiles: [1]\n", "custom.profiles: want a list of profile names, not 1"},
		{"#   modes: inline\n", "custom.modes: want a list of modes (inline, structured)"},
		{"#   modes: [both]\n", "custom.modes: unknown mode both (want inline or structured)"},
	} {
		_, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{"t.rego": rego(c.custom)})}, Options{})
		if err == nil || !strings.Contains(err.Error(), "rule x: "+c.want) {
			t.Errorf("%q: error %v, want %q", c.custom, err, c.want)
		}
	}
}
