package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

// forbiddenBody is a rule body that reports any user message saying "forbidden".
const forbiddenBody = `contains f if {
	some m in input.messages
	m.role == "user"
	contains(m.text, "forbidden")
	f := {"rule": "no-forbidden-word", "msg": "forbidden word", "message_index": m.index}
}
`

// TestMetadataScopes loads the two layouts of rule metadata: a METADATA
// block on the rule, and one above the package line (package scope, one rule
// per package, the layout Regal recommends), with the severity given or
// taken from the package's one finding set.
func TestMetadataScopes(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		sev    finding.Severity
		source string
	}{
		{
			name: "rule scope",
			files: map[string]string{"r.rego": "package chatlint.team\n\n# METADATA\n# description: Forbidden word.\n# custom:\n#   id: no-forbidden-word\n#   severity: warning\n" +
				"warn " + forbiddenBody},
			sev: finding.Warning, source: "team/r.rego:3",
		},
		{
			name: "package scope with severity",
			files: map[string]string{"r.rego": "# METADATA\n# title: No forbidden word\n# description: Forbidden word.\n# custom:\n#   id: no-forbidden-word\n#   severity: warning\npackage chatlint.team.no_forbidden_word\n\n" +
				"warn " + forbiddenBody},
			sev: finding.Warning, source: "team/r.rego:1",
		},
		{
			name: "package scope, severity from the set",
			files: map[string]string{"r.rego": "# METADATA\n# description: Forbidden word.\n# custom:\n#   id: no-forbidden-word\npackage chatlint.team.no_forbidden_word\n\n" +
				"info " + forbiddenBody},
			sev: finding.Info, source: "team/r.rego:1",
		},
		{
			name: "package metadata in another file of the package",
			files: map[string]string{
				"meta.rego": "# METADATA\n# description: Forbidden word.\n# custom:\n#   id: no-forbidden-word\n#   severity: error\npackage chatlint.team.no_forbidden_word\n",
				"rule.rego": "package chatlint.team.no_forbidden_word\n\ndeny " + forbiddenBody,
			},
			sev: finding.Error, source: "team/meta.rego:1",
		},
	}
	doc := chatDoc(t, `{"messages":[{"role":"user","content":"a forbidden thing"},{"role":"assistant","content":"no"}]}`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustCompile(t, Options{}, packOf(t, tt.files))
			rules := e.Rules()
			if len(rules) != 1 || rules[0].ID != "no-forbidden-word" || rules[0].Severity != tt.sev || rules[0].Source != tt.source {
				t.Fatalf("rules = %+v, want no-forbidden-word %s at %s", rules, tt.sev, tt.source)
			}
			hits, err := e.Evaluate(context.Background(), doc)
			if err != nil {
				t.Fatalf("evaluate: %v", err)
			}
			want := []Hit{{Rule: "no-forbidden-word", Pack: "team", Severity: tt.sev, Message: "forbidden word", Target: "/messages/0"}}
			if diff := cmp.Diff(want, hits); diff != "" {
				t.Errorf("hits (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPackageMetadataNeedsSeverity: package metadata over a package with
// both deny and warn cannot guess its severity.
func TestPackageMetadataNeedsSeverity(t *testing.T) {
	_, err := Compile(context.Background(), []*Pack{packOf(t, map[string]string{
		"r.rego": "# METADATA\n# description: Forbidden word.\n# custom:\n#   id: no-forbidden-word\npackage chatlint.team.x\n\ndeny " + forbiddenBody + "\nwarn " + forbiddenBody,
	})}, Options{})
	var ce *CompileError
	if !errors.As(err, &ce) {
		t.Fatalf("want a *CompileError, got %v", err)
	}
	want := []string{"team/r.rego:1:1: rule no-forbidden-word: custom.severity is required on package metadata when the package has not exactly one of deny/warn/info"}
	if diff := cmp.Diff(want, ce.Errors); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}
