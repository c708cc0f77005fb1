package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// The contract pack's gate (policies/contract/gate.yaml) keeps OPA off the
// records that meet the contract. It decides nothing itself, so the pack must
// report exactly what it reports without the gate: on every fixture of every
// pack, the validate-input fixtures (fixtures/contract), the edge cases of
// testdata/contract-gate-cases.jsonl (each field missing, of every wrong
// type, messages with extra, missing or misnamed keys, every timestamp
// chatlint.datetime_valid accepts or refuses) and the shared data, each
// detected and with --format contract. And each assertion of the gate must
// be needed: with any one of them removed the cases' findings differ.
func TestContractGateSameFindings(t *testing.T) {
	dir := filepath.Join(repo, "policies", "contract")
	ungated := t.TempDir()
	copyPackFiles(t, dir, ungated, contractPackFile)
	cases := filepath.Join("testdata", "contract-gate-cases.jsonl")
	validate, _ := filepath.Glob(filepath.Join(repo, "fixtures", "contract", "*", "*.jsonl"))
	if len(validate) < 10 {
		t.Fatalf("found %d validate-input fixtures", len(validate))
	}
	inputs := map[string][]string{"fixtures": ruleFixtureInputs(t), "validate-input fixtures": validate, "cases": {cases}}
	if testing.Short() {
		t.Log("-short: the shared data is left out")
	} else if _, err := os.Stat(sharedData); err == nil {
		inputs["shared data"] = []string{sharedData}
	} else {
		t.Log("no ../shared/data: compared without it")
	}
	for name, files := range inputs {
		for _, args := range [][]string{nil, {"--format", "contract"}} {
			args = append(args, files...)
			now := packFindings(t, "contract", args...)
			old := packFindings(t, "contract", append([]string{"--no-builtin", "--pack", ungated}, args...)...)
			t.Logf("%s %v: %d findings compared", name, args[:len(args)-len(files)], len(now))
			if diff := cmp.Diff(old, now); diff != "" {
				t.Errorf("%s %v: findings (-without the gate +with):\n%s", name, args[:len(args)-len(files)], diff)
			}
			if name == "cases" && len(now) < 80 {
				t.Errorf("cases: %d contract findings: the comparison proves little", len(now))
			}
		}
	}

	// Each assertion removed in turn: the cases must then lose findings.
	src, err := os.ReadFile(filepath.Join(dir, "gate.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	want := packFindings(t, "contract", "--no-builtin", "--pack", ungated, cases)
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		t.Fatal(err)
	}
	entries := mapValue(t, root.Content[0], "rego_when")
	removed := 0
	for i, entry := range entries.Content {
		assert := mapValue(t, entry, "assert")
		for k := 0; k+1 < len(assert.Content); k += 2 {
			key := assert.Content[k].Value
			kept := assert.Content
			assert.Content = append(append([]*yaml.Node{}, kept[:k]...), kept[k+2:]...)
			out, err := yaml.Marshal(&root)
			assert.Content = kept
			if err != nil {
				t.Fatal(err)
			}
			mutant := t.TempDir()
			copyPackFiles(t, dir, mutant, contractPackFile)
			if err := os.WriteFile(filepath.Join(mutant, "gate.yaml"), out, 0o644); err != nil {
				t.Fatal(err)
			}
			got := packFindings(t, "contract", "--no-builtin", "--pack", mutant, cases)
			if cmp.Equal(want, got) {
				t.Errorf("rego_when[%d] without %s: the same findings: no case needs the assertion", i, key)
			}
			removed++
		}
	}
	if removed < 8 {
		t.Errorf("removed %d assertions of the gate, want every one", removed)
	}
}

// contractPackFile keeps the contract pack's files but its gate and tests.
func contractPackFile(name string) bool {
	return name == "pack.yaml" || strings.HasSuffix(name, ".rego") && !strings.HasSuffix(name, "_test.rego")
}

// mapValue returns the value of key in the YAML map n.
func mapValue(t *testing.T, n *yaml.Node, key string) *yaml.Node {
	t.Helper()
	for k := 0; k+1 < len(n.Content); k += 2 {
		if n.Content[k].Value == key {
			return n.Content[k+1]
		}
	}
	t.Fatalf("no %s in the gate", key)
	return nil
}
