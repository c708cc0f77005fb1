package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIntegrityFixtures checks the integrity pack's fixture folders,
// policies/integrity/tests/<rule-id>[--case]/, against its rules: a folder
// named for no rule, and a rule with no folder, fail. TestBuiltinPacksPassChatlintTest
// runs them through chatlint test.
func TestIntegrityFixtures(t *testing.T) {
	root := filepath.Join(repo, "policies/integrity/tests")
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
		rule, _, _ := strings.Cut(d.Name(), "--")
		if !ids[rule] {
			t.Errorf("policies/integrity/tests/%s: no rule %q in the integrity pack", d.Name(), rule)
			continue
		}
		if !exists(filepath.Join(root, d.Name(), "bad.jsonl")) || !exists(filepath.Join(root, d.Name(), "expected.json")) {
			t.Errorf("policies/integrity/tests/%s: a case needs bad.jsonl and expected.json", d.Name())
		}
		covered[rule] = true
	}
	for id := range ids {
		if !covered[id] {
			t.Errorf("rule %s of the integrity pack has no policies/integrity/tests/%s folder", id, id)
		}
	}
}

// integrityRuleIDs lists the rules of the built-in integrity pack.
func integrityRuleIDs(t *testing.T) map[string]bool {
	t.Helper()
	out, errOut, code := chatlint(t, "", "rules", "-o", "json")
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

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
