package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The block rules (tool-result-orphan, -duplicate, -flagged, -missing,
// tool-call-id-duplicate, -reused) moved from Rego
// (policies/integrity/blocks.rego) to YAML (rules/integrity/blocks.yaml).
// testdata/integrity-before is the integrity pack as it was before the move
// (its Rego and YAML files, unchanged): the built-in pack must report exactly
// the findings it reports, under both profiles, on every fixture of every
// pack, on the pairing cases the Rego unit tests had (testdata/blocks-cases.jsonl)
// and on every file of the shared sample data.
func TestIntegrityYAMLBlocksMatchRego(t *testing.T) {
	inputs := map[string][]string{
		"blocks-cases": {filepath.Join("testdata", "blocks-cases.jsonl")},
		"shapes-cases": {filepath.Join("testdata", "shapes-cases.jsonl")},
	}
	fixtures, _ := filepath.Glob(filepath.Join(repo, "policies/*/tests/*/*.jsonl"))
	jsons, _ := filepath.Glob(filepath.Join(repo, "policies/*/tests/*/*.json"))
	for _, f := range jsons {
		if filepath.Base(f) != "expected.json" {
			fixtures = append(fixtures, f)
		}
	}
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
	before := filepath.Join("testdata", "integrity-before")
	for name, files := range inputs {
		for _, profile := range []string{"default", "export"} {
			args := append([]string{"--profile", profile}, files...)
			now := integrityFindings(t, args...)
			old := integrityFindings(t, append([]string{"--no-builtin", "--pack", before}, args...)...)
			t.Logf("%s, profile %s: %d findings compared", name, profile, len(now))
			if diff := cmp.Diff(old, now); diff != "" {
				t.Errorf("%s, profile %s: findings (-Rego before +now):\n%s", name, profile, diff)
			}
			if name == "blocks-cases" && profile == "default" {
				counts := map[string]int{}
				for _, f := range now {
					counts[f.Severity+" "+f.Rule]++
				}
				want := map[string]int{
					"error tool-result-orphan": 16, "error tool-result-duplicate": 4, "error tool-call-id-duplicate": 4,
					"error tool-call-id-reused": 5, "error tool-result-flagged": 17, "warning tool-result-flagged": 3,
					"error tool-result-missing": 14, "warning tool-result-missing": 1, "error tool-calls-shape": 2,
				}
				if diff := cmp.Diff(want, counts); diff != "" {
					t.Errorf("blocks-cases: findings by rule (-want +got):\n%s", diff)
				}
			}
		}
	}
}

type jsonFinding struct {
	Rule          string `json:"rule"`
	Severity      string `json:"severity"`
	Message       string `json:"message"`
	File          string `json:"file"`
	Line          int    `json:"line"`
	Pack          string `json:"pack"`
	MessageIndex  *int   `json:"message_index"`
	ToolCallIndex *int   `json:"tool_call_index"`
	ToolIndex     *int   `json:"tool_index"`
	EntryIndex    *int   `json:"entry_index"`
	Path          string `json:"path"`
}

// integrityFindings runs check -o json and returns the integrity pack's
// findings in a fixed order.
func integrityFindings(t *testing.T, args ...string) []jsonFinding {
	t.Helper()
	out, errOut, code := chatlint(t, "", append([]string{"check", "-o", "json", "--fail-on", "never"}, args...)...)
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
		if f.Pack == "integrity" {
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
