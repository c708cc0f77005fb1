package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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
// aborted turns.
func TestPiSessionsReportUnansweredCalls(t *testing.T) {
	needSharedData(t)
	tests := []struct {
		file             string
		missing, aborted int
	}{
		{"pi-large-session-v1.jsonl", 18, 14},
		{"pi-before-compaction.jsonl", 6, 13},
	}
	for _, tc := range tests {
		counts, _ := checkJSON(t, filepath.Join(sharedData, "agent-sessions/pi", tc.file))
		if counts["error tool-result-missing"] != tc.missing || counts["warning assistant-turn-aborted"] != tc.aborted {
			t.Errorf("%s: %v; want %d tool-result-missing, %d assistant-turn-aborted", tc.file, counts, tc.missing, tc.aborted)
		}
	}
}
