package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
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
func TestFinetuneYAMLMatchesRego(t *testing.T) {
	inputs := map[string][]string{
		"cases": {filepath.Join("testdata", "finetune-cases.jsonl"), filepath.Join("testdata", "finetune-empty-session.jsonl")},
	}
	fixtures, _ := filepath.Glob(filepath.Join(repo, "policies/*/tests/*/*.jsonl"))
	if len(fixtures) < 40 {
		t.Fatalf("found %d fixture files", len(fixtures))
	}
	inputs["fixtures"] = fixtures
	if testing.Short() {
		t.Log("-short: the shared data is left out")
	} else if _, err := os.Stat(sharedData); err == nil {
		inputs["shared data"] = []string{sharedData}
	} else {
		t.Log("no ../shared/data: compared on the fixtures only")
	}
	before := filepath.Join("testdata", "finetune-before")
	for name, files := range inputs {
		for _, profile := range []string{"default", "openai", "mistral", "together", "bedrock"} {
			args := append([]string{"--profile", profile}, files...)
			now := slices.DeleteFunc(packFindings(t, "finetune", args...), func(f jsonFinding) bool { return addedSince[f.Rule] })
			old := packFindings(t, "finetune", append([]string{"--no-builtin", "--pack", before}, args...)...)
			t.Logf("%s, profile %s: %d findings compared", name, profile, len(now))
			if diff := cmp.Diff(old, now); diff != "" {
				t.Errorf("%s, profile %s: findings (-Rego before +now):\n%s", name, profile, diff)
			}
			if name == "cases" {
				counts := map[string]int{}
				for _, f := range now {
					counts[f.Rule]++
				}
				for _, r := range []string{"role-unknown", "conversation-empty", "tool-arguments-schema", "tool-call-undeclared"} {
					if counts[r] == 0 {
						t.Errorf("cases, profile %s: no %s finding: the comparison proves nothing for it", profile, r)
					}
				}
			}
		}
	}
}

// addedSince are the finetune rules written after the move, which the pack
// before it does not have.
var addedSince = map[string]bool{"dataset-token-cost": true, "dataset-too-many-examples": true}

// packFindings runs check -o json and returns one pack's findings in a
// fixed order.
func packFindings(t *testing.T, pack string, args ...string) []jsonFinding {
	t.Helper()
	out, errOut, code := chatlint(t, "", append([]string{"check", "--no-config", "-o", "json", "--fail-on", "never"}, args...)...)
	if code != 0 && code != 1 {
		t.Fatalf("check %v: exit %d: %s", args, code, errOut)
	}
	var res struct {
		Findings []jsonFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check %v: %v", args, err)
	}
	var fs []jsonFinding
	for _, f := range res.Findings {
		if f.Pack == pack {
			fs = append(fs, f)
		}
	}
	key := func(f jsonFinding) string {
		b, _ := json.Marshal(f)
		return fmt.Sprintf("%s\x00%010d\x00%s", f.File, f.Line, b)
	}
	sort.Slice(fs, func(i, j int) bool { return key(fs[i]) < key(fs[j]) })
	return fs
}
