package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestRulesExplain(t *testing.T) {
	team := filepath.Join(repo, "fixtures/packs/team")
	out, errOut, code := chatlint(t, "", "rules", "explain", "legacy-function-call")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"legacy-function-call\n", "severity: error\n", "pack:     integrity\n",
		"source:   builtin:rules/integrity/integrity.yaml:", "Failing example:\n\n    {", "How to fix: "} {
		if !strings.Contains(out, want) {
			t.Errorf("explain lacks %q:\n%s", want, out)
		}
	}
	out, _, _ = chatlint(t, "", "rules", "explain", "--no-builtin", "--pack", team, "no-empty-assistant")
	if !strings.Contains(out, "source:   "+filepath.Join(team, "no_empty_assistant.rego")+":3\n") {
		t.Errorf("a pack rule's source file:line:\n%s", out)
	}
	_, errOut, code = chatlint(t, "", "rules", "explain", "tool-result-mising")
	if code != 2 || !strings.Contains(errOut, "did you mean tool-result-missing?") {
		t.Errorf("unknown rule: exit %d, %q", code, errOut)
	}
}

func TestRulesJSON(t *testing.T) {
	out, _, code := chatlint(t, "", "rules", "-o", "json")
	var rules []struct {
		ID, Severity, Pack, Source, Description string
	}
	if err := json.Unmarshal([]byte(out), &rules); err != nil || code != 0 || len(rules) == 0 {
		t.Fatalf("exit %d, %d rules, %v", code, len(rules), err)
	}
	for _, r := range rules {
		if r.ID == "" || r.Severity == "" || r.Pack == "" || r.Source == "" || r.Description == "" {
			t.Errorf("incomplete rule metadata: %+v", r)
		}
	}
}

// rules -o names the output format, as -o does in check, stats and repair;
// the old --format still works, with a note on stderr.
func TestRulesOutputFlag(t *testing.T) {
	byO, _, code := chatlint(t, "", "rules", "-o", "json")
	if code != 0 || !strings.HasPrefix(byO, "[") {
		t.Fatalf("rules -o json: exit %d\n%s", code, byO)
	}
	old, errOut, code := chatlint(t, "", "rules", "--format", "json")
	if code != 0 || old != byO || !strings.Contains(errOut, "deprecated: use -o") {
		t.Errorf("rules --format json: exit %d, same output %v, stderr %q", code, old == byO, errOut)
	}
	if _, errOut, code := chatlint(t, "", "rules", "-o", "yaml"); code != 2 || !strings.Contains(errOut, "want text, json or markdown") {
		t.Errorf("rules -o yaml: exit %d, %s", code, errOut)
	}
}
