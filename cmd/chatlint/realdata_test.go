package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedData is the folder of real public datasets beside the repository.
var sharedData = filepath.Join(repo, "../shared/data")

func needSharedData(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(sharedData); err != nil {
		t.Skip("no ../shared/data:", err)
	}
}

// checkJSON runs check -o json and returns the findings' rules by severity.
func checkJSON(t *testing.T, args ...string) (map[string]int, int) {
	t.Helper()
	out, errOut, code := chatlint(t, "", append([]string{"check", "-o", "json", "--fail-on", "never"}, args...)...)
	if code != 0 {
		t.Fatalf("check %v: exit %d: %s", args, code, errOut)
	}
	var res struct {
		Findings []struct{ Rule, Severity string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	errors := 0
	for _, f := range res.Findings {
		counts[f.Severity+" "+f.Rule]++
		if f.Severity == "error" {
			errors++
		}
	}
	return counts, errors
}

// The canonical OpenAI fine-tuning examples, conversation records and the
// LiteLLM payload are clean under the default profile.
func TestCanonicalDataIsClean(t *testing.T) {
	needSharedData(t)
	var files []string
	for _, dir := range []string{"openai-finetune", "conversation-records"} {
		matches, _ := filepath.Glob(filepath.Join(sharedData, dir, "*"))
		files = append(files, matches...)
	}
	files = append(files, filepath.Join(sharedData, "proxy-logs/litellm-standard-logging-payload.json"))
	for _, f := range files {
		if counts, errors := checkJSON(t, f); errors > 0 {
			t.Errorf("%s: %v", filepath.Base(f), counts)
		}
	}
	// The export profile keeps the strict checks: every drone example ends
	// on a call without a result.
	counts, _ := checkJSON(t, "--profile", "export", filepath.Join(sharedData, "openai-finetune/cookbook-drone-training-tools.jsonl"))
	if counts["error tool-result-missing"] != 103 {
		t.Errorf("export profile on the drone examples: %v, want 103 tool-result-missing", counts)
	}
}

// The pi agent sessions report the calls that never got a result and their
// aborted turns: a call of a turn that ended aborted or in an error is
// tool-call-not-executed (a warning), any other tool-result-missing.
func TestPiSessionsReportUnansweredCalls(t *testing.T) {
	needSharedData(t)
	tests := []struct {
		file                     string
		missing, notRun, aborted int
	}{
		{"pi-large-session-v1.jsonl", 0, 18, 14},
		{"pi-before-compaction.jsonl", 1, 5, 13},
	}
	for _, tc := range tests {
		counts, _ := checkJSON(t, filepath.Join(sharedData, "agent-sessions/pi", tc.file))
		if counts["error tool-result-missing"] != tc.missing || counts["warning tool-call-not-executed"] != tc.notRun || counts["warning assistant-turn-aborted"] != tc.aborted {
			t.Errorf("%s: %v; want %d tool-result-missing, %d tool-call-not-executed, %d assistant-turn-aborted", tc.file, counts, tc.missing, tc.notRun, tc.aborted)
		}
	}
}

// The Claude Code and Codex samples: check reports their defects line by
// line (the edge-case file's broken lines among them), and fix writes every
// line back, changed or not, or to the rejects; fixing again changes
// nothing.
func TestAgentSessionsCheckAndFix(t *testing.T) {
	needSharedData(t)
	want := map[string]map[string]int{
		"claude-code/cclog-edge_cases.jsonl": {
			"error jsonl-syntax": 3, "error claude-code-entry-shape": 4, "error claude-code-uuid-duplicate": 2,
			"error claude-code-chain-broken": 1, "error tool-result-missing": 2,
		},
		"claude-code/clio-entire-claude-code-session.jsonl": {"warning claude-code-results-out-of-order": 3},
		"codex/cclog-codex-rollout-malformed.jsonl":         {"error jsonl-syntax": 1},
		"codex/cclog-codex-rollout-synthetic.jsonl":         {},
	}
	for rel, rules := range want {
		in := filepath.Join(sharedData, "agent-sessions", rel)
		if _, err := os.Stat(in); err != nil {
			t.Logf("%s: not in the sample data", rel)
			continue
		}
		counts, _ := checkJSON(t, in)
		for r, n := range rules {
			if counts[r] != n {
				t.Errorf("%s: %d %s, want %d (all: %v)", rel, counts[r], r, n, counts)
			}
		}
		dir := t.TempDir()
		out := filepath.Join(dir, "out.jsonl")
		if _, errOut, code := chatlint(t, "", "fix", "-o", out, in); code != 0 {
			t.Errorf("%s: fix exit %d: %s", rel, code, errOut)
			continue
		}
		inLines := nonEmptyLines(t, in)
		outLines := nonEmptyLines(t, out)
		if len(outLines) == 0 {
			t.Errorf("%s: empty output", rel)
		}
		written := map[string]bool{}
		uuids := map[string]bool{}
		for _, l := range outLines {
			written[l] = true
			var e struct{ UUID string }
			if json.Unmarshal([]byte(l), &e) == nil && e.UUID != "" {
				uuids[e.UUID] = true
			}
		}
		rejected := map[string]bool{}
		for _, l := range nonEmptyLines(t, out+".rejects.jsonl") {
			var r struct{ Data json.RawMessage }
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatal(err)
			}
			rejected[string(r.Data)] = true
		}
		for i, l := range inLines {
			var e struct{ UUID string }
			if written[l] || rejected[l] || json.Unmarshal([]byte(l), &e) == nil && uuids[e.UUID] && e.UUID != "" {
				continue
			}
			t.Errorf("%s: input line %d is neither written nor rejected", rel, i+1)
		}
		again := filepath.Join(dir, "again.jsonl")
		chatlint(t, "", "fix", "-o", again, out)
		if a, b := mustRead(t, again), mustRead(t, out); a != b {
			t.Errorf("%s: a second fix changed the output", rel)
		}
	}
}

func nonEmptyLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}
