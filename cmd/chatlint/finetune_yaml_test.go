package main

import (
	"path/filepath"
	"testing"
)

// The finetune pack's default-profile rules (tool-arguments-schema,
// tool-call-undeclared, conversation-empty, role-unknown) moved from Rego
// (policies/finetune/arguments.rego, conversation.rego) to YAML
// (rules/finetune/finetune.yaml), so that a default-profile run gives OPA
// nothing to do. testdata/finetune-before is the pack as it was before the
// move (its Rego and YAML unchanged): the built-in pack must report exactly
// its findings, under every profile, on every fixture of every pack, on the
// edge cases of testdata/finetune-cases.jsonl (roles, missing roles, empty
// conversations, undeclared tools with legacy functions, schemas, unnamed
// tools, Anthropic and inline calls, an empty pi session) and on every file
// of the shared sample data.
//
// Under the default profile only: since issue 33 a provider profile is
// that provider's verdict, so the shared rules' errors are warnings there
// and the provider rules changed on purpose; providers_test.go holds them.
func TestFinetuneYAMLMatchesRego(t *testing.T) {
	equivalence{
		pack:     "finetune",
		before:   filepath.Join("testdata", "finetune-before"),
		profiles: []string{"default"},
		inputs: map[string][]string{
			"cases": {filepath.Join("testdata", "finetune-cases.jsonl"), filepath.Join("testdata", "finetune-empty-session.jsonl")},
		},
		// the finetune rules written after the move
		newer: map[string]bool{"dataset-token-cost": true, "dataset-too-many-examples": true},
		check: func(t *testing.T, name, profile string, now []jsonFinding) {
			if name != "cases" {
				return
			}
			counts := ruleCounts(now, false)
			for _, r := range []string{"role-unknown", "conversation-empty", "tool-arguments-schema", "tool-call-undeclared"} {
				if counts[r] == 0 {
					t.Errorf("cases, profile %s: no %s finding: the comparison proves nothing for it", profile, r)
				}
			}
		},
	}.run(t)
}
