package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// expected is one finding a fixture must produce.
type expected struct {
	Rule         string `json:"rule"`
	Severity     string `json:"severity"`
	Line         int    `json:"line"`
	MessageIndex *int   `json:"message_index,omitempty"`
}

// TestIntegrityFixtures runs every fixtures/integrity/<rule-id>[--case]/
// folder through the CLI: bad.jsonl must produce exactly the findings of
// expected.json for that rule, and good.jsonl none of that rule. A folder
// named for no rule of the pack, and a rule of the pack with no folder, fail.
func TestIntegrityFixtures(t *testing.T) {
	root := filepath.Join(repo, "fixtures/integrity")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	ids := integrityRuleIDs(t)
	covered := map[string]bool{}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		rule, kase, _ := strings.Cut(d.Name(), "--")
		if !ids[rule] {
			t.Errorf("fixtures/integrity/%s: no rule %q in the integrity pack", d.Name(), rule)
			continue
		}
		covered[rule] = true
		dir := filepath.Join(root, d.Name())
		var args []string
		if strings.HasSuffix(kase, "export") { // a case of the strict profile
			args = []string{"--profile", "export"}
		}
		t.Run(d.Name(), func(t *testing.T) {
			if bad := filepath.Join(dir, "bad.jsonl"); exists(bad) {
				var want []expected
				data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal(data, &want); err != nil {
					t.Fatalf("expected.json: %v", err)
				}
				got := findingsOf(t, rule, bad, args...)
				if len(want) == 0 {
					t.Fatal("expected.json lists no finding: a bad fixture must trigger its rule")
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("findings of %s on bad.jsonl (-want +got):\n%s", rule, diff)
				}
			}
			if good := filepath.Join(dir, "good.jsonl"); exists(good) {
				if got := findingsOf(t, rule, good, args...); len(got) > 0 {
					t.Errorf("good.jsonl triggers %s: %+v", rule, got)
				}
			}
		})
	}
	for id := range ids {
		if !covered[id] {
			t.Errorf("rule %s of the integrity pack has no fixtures/integrity/%s folder", id, id)
		}
	}
}

// integrityRuleIDs lists the rules of the built-in integrity pack.
func integrityRuleIDs(t *testing.T) map[string]bool {
	t.Helper()
	out, errOut, code := chatlint(t, "", "rules", "--format", "json")
	if code != 0 {
		t.Fatalf("rules: exit %d: %s", code, errOut)
	}
	var rules []struct{ ID, Pack string }
	if err := json.Unmarshal([]byte(out), &rules); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range rules {
		if r.Pack == "integrity" {
			ids[r.ID] = true
		}
	}
	if len(ids) == 0 {
		t.Fatal("the integrity pack has no rules")
	}
	return ids
}

// findingsOf runs check -o json on a file and keeps the findings of one rule.
func findingsOf(t *testing.T, rule, file string, args ...string) []expected {
	t.Helper()
	out, errOut, code := chatlint(t, "", append([]string{"check", "-o", "json", "--fail-on", "never", file}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Findings []expected `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	return slices.DeleteFunc(res.Findings, func(f expected) bool { return f.Rule != rule })
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
