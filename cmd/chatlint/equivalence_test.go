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

// Rules that moved from Rego to compiled YAML are held to the findings of
// the pack as it was before the move, kept under testdata: a new fixture or
// sample file is compared too, without regenerating anything.

// equivalence compares the built-in pack with its copy from before a move.
type equivalence struct {
	pack     string // the pack whose findings are compared
	before   string // the pack's folder as it was before the move
	profiles []string
	// inputs are named sets of files; every rule fixture of every pack and
	// (unless -short or absent) the shared sample data are added.
	inputs map[string][]string
	// newer drops findings of rules written after the move, which the pack
	// before it does not have.
	newer map[string]bool
	// check looks further at one set's findings (per-rule minimums, so that
	// two empty lists cannot pass for a rule); nil for none.
	check func(t *testing.T, name, profile string, now []jsonFinding)
}

func (e equivalence) run(t *testing.T) {
	t.Helper()
	inputs := map[string][]string{"fixtures": ruleFixtureInputs(t)}
	for name, files := range e.inputs {
		inputs[name] = files
	}
	if testing.Short() {
		t.Log("-short: the shared data is left out")
	} else if _, err := os.Stat(sharedData); err == nil {
		inputs["shared data"] = []string{sharedData}
	} else {
		t.Log("no ../shared/data: compared without it")
	}
	for name, files := range inputs {
		for _, profile := range e.profiles {
			args := append([]string{"--profile", profile}, files...)
			var now []jsonFinding
			for _, f := range packFindings(t, e.pack, args...) {
				if !e.newer[f.Rule] {
					now = append(now, f)
				}
			}
			old := packFindings(t, e.pack, append([]string{"--no-builtin", "--pack", e.before}, args...)...)
			t.Logf("%s, profile %s: %d findings compared", name, profile, len(now))
			if diff := cmp.Diff(old, now); diff != "" {
				t.Errorf("%s, profile %s: findings (-Rego before +now):\n%s", name, profile, diff)
			}
			if e.check != nil {
				e.check(t, name, profile, now)
			}
		}
	}
}

// ruleFixtureInputs lists the input files of every pack's rule fixtures
// (expected.json beside them is an expectation, not an input).
func ruleFixtureInputs(t *testing.T) []string {
	t.Helper()
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
	return fixtures
}

// ruleCounts counts findings per "severity rule" (bySeverity) or per rule.
func ruleCounts(fs []jsonFinding, bySeverity bool) map[string]int {
	counts := map[string]int{}
	for _, f := range fs {
		k := f.Rule
		if bySeverity {
			k = f.Severity + " " + f.Rule
		}
		counts[k]++
	}
	return counts
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
