package policy

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
)

// A provider profile is its provider's verdict: an error of a rule shared
// with every profile is a warning under it, unless the profile names the
// rule among its checks; a rule of the profile's own keeps its severity.
// Check (the hits) and rules (SeverityUnder) agree.
func TestProviderProfileDemotesSharedErrors(t *testing.T) {
	const shared = `rules:
  - id: shared-kept
    severity: error
    description: Shared, and one of the provider's own checks.
    given: messages[*]
    where: {role: narrator}
    assert: {role: absent}
    message: 'kept {{index}}'
  - id: shared-own
    severity: error
    description: Shared, a check of chatlint's own.
    given: messages[*]
    where: {role: narrator}
    assert: {role: absent}
    message: 'own {{index}}'
  - id: provider-only
    severity: error
    profiles: [prov]
    description: The provider's own rule.
    given: messages[*]
    where: {role: narrator}
    assert: {role: absent}
    message: 'provider {{index}}'
`
	p := &Pack{Name: "team", YAML: []File{{Name: "rules.yaml", Source: []byte(shared)}},
		Profiles: []Profile{{Name: "prov", Description: "a provider", Provider: true, Checks: []string{"shared-kept"}}, {Name: "plain", Description: "not a provider"}}}
	e := mustCompile(t, Options{}, p)
	rec := `{"messages": [{"role": "narrator", "content": "Once"}, {"role": "assistant", "content": "Hi"}]}`
	for _, tc := range []struct {
		profile string
		want    map[string]finding.Severity
	}{
		{"default", map[string]finding.Severity{"shared-kept": finding.Error, "shared-own": finding.Error}},
		{"plain", map[string]finding.Severity{"shared-kept": finding.Error, "shared-own": finding.Error}},
		{"prov", map[string]finding.Severity{"shared-kept": finding.Error, "shared-own": finding.Warning, "provider-only": finding.Error}},
	} {
		v, err := astjson.Decode([]byte(rec))
		if err != nil {
			t.Fatal(err)
		}
		doc := document.NewBuilder(document.Chat, "data.jsonl", document.Options{Profile: tc.profile}).Add(1, v.(ast.Object))
		hits, err := e.Evaluate(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]finding.Severity{}
		for _, h := range hits {
			got[h.Rule] = h.Severity
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("profile %s: hits (-want +got):\n%s", tc.profile, diff)
		}
		listed := map[string]finding.Severity{}
		for _, r := range e.Rules() {
			if r.AppliesUnder(tc.profile) {
				listed[r.ID] = e.SeverityUnder(tc.profile, r)
			}
		}
		if diff := cmp.Diff(got, listed); diff != "" {
			t.Errorf("profile %s: SeverityUnder disagrees with the hits (-hits +listed):\n%s", tc.profile, diff)
		}
	}
	for _, r := range e.Rules() {
		want := map[string]finding.Severity(nil)
		if r.ID == "shared-own" {
			want = map[string]finding.Severity{"prov": finding.Warning}
		}
		if diff := cmp.Diff(want, r.Severities); diff != "" {
			t.Errorf("%s: Severities (-want +got):\n%s", r.ID, diff)
		}
	}
}
