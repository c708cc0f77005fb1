package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRulesSayWhatFixRepairs: rules (text, json, markdown) and rules explain
// name, for each check, the cleanup rules after which fix leaves none of its
// findings, read from the cleanup rules' own repairs declarations — the
// built-in packs' Rego custom.repairs, and a team's YAML repairs.
func TestRulesSayWhatFixRepairs(t *testing.T) {
	out, errOut, code := chatlint(t, "", "rules", "--no-config", "--format", "json")
	if code != 0 {
		t.Fatalf("rules: exit %d: %s", code, errOut)
	}
	var rules []struct {
		ID      string   `json:"id"`
		FixedBy []string `json:"fixed_by"`
	}
	if err := json.Unmarshal([]byte(out), &rules); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range rules {
		if len(r.FixedBy) > 0 {
			got[r.ID] = r.FixedBy
		}
	}
	// A rule that acts in one tool-call mode only (custom.modes), or in some
	// formats only (custom.formats), says so: it repairs nothing elsewhere.
	const (
		inlineWrap   = "openai-tools/inline-tool-result-unwrapped (inline; chat, contract, proxy-log, pi-session, openai-batch-input, anthropic-batch)"
		inlineOrphan = "openai-tools/inline-tool-result-orphan (inline; chat, contract, proxy-log, pi-session, openai-batch-input, anthropic-batch, sharegpt, claude-code, codex)"
	)
	want := map[string][]string{
		"inline-tool-result-wrapper": {inlineOrphan, inlineWrap},
		"message-repeated":           {"openai-tools/message-repeated"},
		"tool-call-id-duplicate":     {"openai-tools/tool-call-id-reused (structured)"},
		"tool-call-id-reused":        {"openai-tools/tool-call-id-reused (structured)"},
		"tool-call-missing-id":       {"openai-tools/tool-call-missing-id (structured)"},
		"tool-call-missing-input":    {"transcript/tool-call-missing-input (structured)"},
		"tool-result-duplicate":      {"openai-tools/tool-result-repeated (structured)", "transcript/tool-result-pairing (structured)"},
		"tool-result-missing":        {"transcript/tool-result-pairing (structured)"},
		"tool-result-orphan": {
			inlineOrphan, inlineWrap,
			"openai-tools/tool-result-missing-id (structured)", "openai-tools/tool-result-unknown-id (structured)",
			"transcript/tool-result-pairing (structured)",
		},
		"tool-result-separated":     {"openai-tools/tool-result-misplaced (structured)", "transcript/tool-result-pairing (structured)"},
		"tool-results-out-of-order": {"transcript/tool-result-pairing (structured)"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("fixed_by (-want +got):\n%s", diff)
	}

	text, _, _ := chatlint(t, "", "rules", "--no-config")
	if !strings.Contains(text, "FIXED BY") || !containsLine(text, "tool-result-missing", "transcript/tool-result-pairing") || !containsLine(text, "tool-result-flagged", " - ") {
		t.Errorf("rules text does not say what fix repairs:\n%s", text)
	}
	md, _, _ := chatlint(t, "", "rules", "--no-config", "--format", "markdown")
	if !strings.Contains(md, "`chatlint fix` repairs it: `transcript/tool-result-pairing (structured)`.") {
		t.Errorf("rules markdown does not say what fix repairs")
	}
	for id, want := range map[string]string{
		"tool-result-missing": "chatlint fix: repaired by transcript/tool-result-pairing (structured).",
		"tool-result-flagged": "chatlint fix: no cleanup rule repairs it.",
	} {
		if out, _, _ := chatlint(t, "", "rules", "explain", "--no-config", id); !strings.Contains(out, want) {
			t.Errorf("explain %s: want %q in\n%s", id, want, out)
		}
	}

	// A team's cleanup pack declares, in YAML, that it repairs the team's check.
	dir := t.TempDir()
	cleanup := filepath.Join(dir, "team-cleanup")
	if err := os.Mkdir(cleanup, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, cleanup, "pack.yaml", "name: team-cleanup\nkind: cleanup\n")
	writeFile(t, cleanup, "drop.yaml", `rules:
  - id: drop-empty-assistant
    severity: info
    description: Drops an assistant message with no content and no tool calls.
    repairs: [no-empty-assistant]
    given: messages[*]
    where: {role: assistant, tool_calls: {not_empty: false}}
    assert: {has_content: true}
    action: {op: drop_message}
`)
	team := filepath.Join(repo, "fixtures/packs/team")
	out, errOut, code = chatlint(t, "", "rules", "explain", "--no-config", "--no-builtin", "--pack", team, "--pack", cleanup, "no-empty-assistant")
	if code != 0 || !strings.Contains(out, "chatlint fix: repaired by team-cleanup/drop-empty-assistant.") {
		t.Errorf("explain with a team cleanup pack: exit %d\n%s%s", code, out, errOut)
	}
}

// containsLine reports whether a line of text starts with id and holds want.
func containsLine(text, id, want string) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, id+" ") && strings.Contains(l, want) {
			return true
		}
	}
	return false
}
