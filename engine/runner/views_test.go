package runner_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/testinputs"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestMessageViewsSameFindings: building a pruned document's messages as
// document.MessageValues (read by slot in the YAML evaluator, materialized
// for Rego and everything else) never changes a finding. Every pack set of
// TestPrunedDocumentsSameFindings, its Rego probes of every message member,
// and YAML probes that hand whole messages to the evaluator's type tests,
// comparisons, schema and template filters, under each profile, over every
// fixture file and the shared sample data: the findings with views and with
// the messages built as OPA objects (Fields.PlainMessages) must be
// identical.
func TestMessageViewsSameFindings(t *testing.T) {
	t.Parallel() // a minute each on one core (Workers: 1): side by side on two
	fixtures := testinputs.Files(t, false)
	inputs := testinputs.Files(t, !testing.Short())
	sets := testinputs.PackSets(t)
	for name, p := range probePacks() {
		sets[name] = []*policy.Pack{p}
	}
	for name, p := range viewProbePacks() {
		sets[name] = []*policy.Pack{p}
	}
	viewed := 0
	for _, name := range sweep.Keys(sets, sweepSets, "built-in check packs") {
		packs := sets[name]
		eng, err := policy.Compile(context.Background(), packs, policy.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		f := eng.Fields()
		if f.All() {
			continue // whole documents: no view to compare
		}
		viewed++
		profiles := []string{document.DefaultProfile}
		for _, p := range eng.Profiles() {
			profiles = append(profiles, p.Name)
		}
		in := inputs
		if strings.HasPrefix(name, "probe ") || strings.HasPrefix(name, "view probe ") {
			in = fixtures // a finding per message or call: the fixtures have every shape
		}
		for _, profile := range sampleProfiles(profiles) {
			plain := findings(t, eng, in, document.Options{Profile: profile, Fields: f.PlainMessages()})
			// Fields given: views on every document, Rego's included (a
			// run leaves them out where Rego runs, MessageViewsFor)
			got := findings(t, eng, in, document.Options{Profile: profile, Fields: f})
			if diff := cmp.Diff(plain, got); diff != "" {
				t.Errorf("%s, profile %s: findings (-plain messages +views):\n%s", name, profile, diff)
			}
			if len(plain) == 0 && !strings.HasPrefix(name, "probe ") {
				t.Errorf("%s, profile %s: no finding at all: the comparison proves nothing", name, profile)
			}
		}
	}
	if viewed < 10 && sweep.Full() {
		t.Errorf("only %d of %d pack sets build views", viewed, len(sets))
	}
}

// viewProbePacks are YAML rules that read whole messages: a type test, a
// comparison with another message, a schema test, every template filter.
func viewProbePacks() map[string]*policy.Pack {
	rules := map[string]string{
		"type and filters": `given: messages[*]
    assert:
      $: {type: string}
    message: '{{json $}} | {{type $}} | {{q $}} | {{$}} | {{failure}}'`,
		"same as itself": `given: messages[*]
    assert:
      $: {not: {same_as: $message}}
    message: '{{index}} {{failure}}'`,
		"equals the previous": `given: messages[*]
    where:
      $previous: present
    assert:
      $: {not: {same_as: $previous}}
    message: '{{index}} {{failure}}'`,
		"as a schema": `given: messages[*]
    assert:
      $: {json_schema: true}
      role: {type: number}
    message: '{{index}} {{failure}}'`,
		"the document": `given: $
    assert:
      messages: {type: string}
    message: '{{json messages}} {{failure}}'`,
	}
	out := map[string]*policy.Pack{}
	for name, r := range rules {
		src := "rules:\n  - id: view-probe\n    severity: info\n    description: probes a view.\n    " + r + "\n"
		out["view probe "+name] = &policy.Pack{Name: "view-probe", YAML: []policy.File{{Name: "probe.yaml", Source: []byte(src)}}}
	}
	return out
}
