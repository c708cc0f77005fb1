package policy

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// TestYAMLHoisted runs rules whose conditions the shortcuts of
// yamlrule/hoist.go move out of the element loop (conditions on the document in
// where, unless and cases; a where on the role) over records under two
// profiles, and wants the findings listed, which are also those of the
// evaluation without the shortcuts.
func TestYAMLHoisted(t *testing.T) {
	const roles = `{"messages":[{"role":"user","content":"q"},{"role":"tool","content":"r"},{"role":"system","content":"s"},{"role":"","content":"e"},{"role":"narrator","content":"n"},{"content":"no role"},{"role":3,"content":"number"},{"role":"assistant","content":"a"}]%s}`
	rule := func(body string) string {
		return "rules:\n  - id: r\n    severity: error\n    description: d\n    given: messages[*]\n" + body
	}
	tests := []struct {
		name, rule, record, profile string
		want                        []string
	}{{
		name: "where on the document holds, role filter with not and in",
		rule: rule(`    where:
      $document.profile: openai
      role: {not: {in: [user, assistant]}}
    assert:
      role: {in: [system]}
    message: '{{index}}'
`),
		record: fmt.Sprintf(roles, ""), profile: "openai",
		want: []string{"1", "3", "4", "5", "6"},
	}, {
		name: "where on the document fails: no element is visited",
		rule: rule(`    where:
      $document.profile: openai
      role: {not: {in: [user, assistant]}}
    assert:
      role: {in: [system]}
    message: '{{index}}'
`),
		record: fmt.Sprintf(roles, ""), profile: "",
	}, {
		name: "where on an absent member of the document",
		rule: rule(`    where:
      $document.raw.flag: {not: true}
      role: {in: [tool, narrator]}
    assert:
      role: tool
    message: '{{index}}'
`),
		record: fmt.Sprintf(roles, ""),
		want:   []string{"4"},
	}, {
		name: "where on a present member of the document fails",
		rule: rule(`    where:
      $document.raw.flag: {not: true}
      role: {in: [tool, narrator]}
    assert:
      role: tool
    message: '{{index}}'
`),
		record: fmt.Sprintf(roles, `,"flag":true`),
	}, {
		name: "cases on the document: the first that holds for the document and the element",
		rule: rule(`    where:
      role: {not: {in: [user, assistant]}}
    cases:
      - when: {$document.profile: openai, role: ''}
        message: 'openai empty {{index}}'
      - when: {$document.raw.flag: true, role: narrator}
        message: 'flagged {{index}}'
      - when: {$document.profile: {not: {in: [openai]}}, role: {not: {in: [system, tool, '']}}}
        message: 'default {{index}}'
`),
		record: fmt.Sprintf(roles, `,"flag":true`),
		want:   []string{"flagged 4"}, // the normalizer gives a missing or non-string role as ""
	}, {
		name: "cases on the document under another profile",
		rule: rule(`    where:
      role: {not: {in: [user, assistant]}}
    cases:
      - when: {$document.profile: openai, role: ''}
        message: 'openai empty {{index}}'
      - when: {$document.raw.flag: true, role: narrator}
        message: 'flagged {{index}}'
      - when: {$document.profile: {not: {in: [openai]}}, role: {not: {in: [system, tool, '']}}}
        message: 'default {{index}}'
`),
		record: fmt.Sprintf(roles, ""), profile: "openai",
		want: []string{"openai empty 3", "openai empty 5", "openai empty 6"},
	}, {
		name: "unless on the document holds: its other conditions leave elements out",
		rule: rule(`    where:
      role: {type: string}
    unless:
      $document.profile: {not_equals: export}
      role: {in: [user, assistant, system]}
    cases:
      - message: '{{index}}'
`),
		record: fmt.Sprintf(roles, ""),
		want:   []string{"1", "3", "4", "5", "6"},
	}, {
		name: "unless on the document fails: no element is left out",
		rule: rule(`    where:
      role: {type: string}
    unless:
      $document.profile: {not_equals: export}
      role: {in: [user, assistant, system]}
    cases:
      - message: '{{index}}'
`),
		record: fmt.Sprintf(roles, ""), profile: "export",
		want: []string{"0", "1", "2", "3", "4", "5", "6", "7"},
	}, {
		name: "a role condition that reads another path is not a filter",
		rule: rule(`    where:
      role: {same_as: raw.content}
    assert:
      role: absent
    message: '{{index}}'
`),
		record: `{"messages":[{"role":"user","content":"user"},{"role":"user","content":"x"}]}`,
		want:   []string{"0"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustCompile(t, Options{}, packOf(t, map[string]string{"r.yaml": tt.rule}))
			v, err := astjson.Decode([]byte(tt.record))
			if err != nil {
				t.Fatal(err)
			}
			doc := document.NewBuilder(document.Chat, "data.jsonl", document.Options{Profile: tt.profile}).Add(1, v.(ast.Object))
			var got [2][]string
			for i, on := range []bool{true, false} {
				was := SetYAMLShortcuts(on)
				hits, err := e.NewEvaluator().Evaluate(context.Background(), doc)
				SetYAMLShortcuts(was)
				if err != nil {
					t.Fatal(err)
				}
				for _, h := range hits {
					got[i] = append(got[i], h.Message)
				}
			}
			if diff := cmp.Diff(tt.want, got[0]); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(got[1], got[0]); diff != "" {
				t.Errorf("findings (-without +with shortcuts):\n%s", diff)
			}
		})
	}
}
