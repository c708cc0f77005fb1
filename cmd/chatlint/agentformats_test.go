package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The agent session, trajectory and framework files of ../shared/data:
// check names each one's format and finds no error but the real one (a
// replace call of the Pomodoro session that failed); fix refuses each
// (exit 2, naming it, nothing written); convert --to openai gives one
// example per conversation, each member it does not write named in a
// convert-lossy note rather than dropped without a word.
func TestAgentFormatsRealData(t *testing.T) {
	needSharedData(t)
	for _, tc := range []struct {
		rel    string
		format string
		errors map[string]int
	}{
		{"agent-sessions/gemini-cli/agent-sessions-gemini-jsonl_v040.jsonl", "gemini-cli", nil},
		{"agent-sessions/gemini-cli/agent-sessions-gemini-large.json", "gemini-cli", nil},
		{"agent-sessions/gemini-cli/ai-sessions-gemini-cli-pomodoro-timer.json", "gemini-cli", map[string]int{"error tool-result-flagged": 1}},
		{"agent-sessions/gemini-cli/vibecodingtracker-gemini-session.jsonl", "gemini-cli", nil},
		{"agent-sessions/gemini-cli/vibecodingtracker-test-conversation-gemini.json", "gemini-cli", nil},
		{"agent-trajectories/swe-agent/swe-agent-function_calling_simple.traj", "swe-agent", nil},
		{"agent-trajectories/swe-agent/swe-agent-pydicom__pydicom-1458.traj", "swe-agent", nil},
		{"agent-trajectories/mini-swe-agent/mini-swe-agent-sqlfluff__sqlfluff-2419.traj.json", "mini-swe-agent", nil},
		{"agent-trajectories/mini-swe-agent/mini-swe-agent-github_issue.traj.json", "openai-responses", nil},
		{"agent-trajectories/openhands/openhands-trajs-basic.json", "openhands", nil},
		{"framework-messages/openai-agents-sdk/agents-sdk-runstate-v1_13_pending_tool_approval.json", "openai-agents-runstate", nil},
		{"framework-messages/openai-agents-sdk/agents-sdk-runstate-v1_13_nested_history_ownership.json", "openai-agents-runstate", nil},
	} {
		t.Run(filepath.Base(tc.rel), func(t *testing.T) {
			in := filepath.Join(sharedData, tc.rel)
			if _, err := os.Stat(in); err != nil {
				t.Skip(err)
			}
			out, _, _ := chatlint(t, "", "check", "-v", in)
			if !strings.Contains(out, in+": "+tc.format+",") {
				t.Errorf("check -v does not name %s:\n%s", tc.format, out)
			}
			counts, _ := checkJSON(t, in)
			errs := map[string]int{}
			for k, n := range counts {
				if strings.HasPrefix(k, "error ") {
					errs[k] = n
				}
			}
			if len(errs) == 0 {
				errs = nil
			}
			if !reflect.DeepEqual(errs, tc.errors) {
				t.Errorf("check: %v, want %v", errs, tc.errors)
			}

			dst := filepath.Join(t.TempDir(), "out.jsonl")
			_, stderr, code := chatlint(t, "", "fix", "-o", dst, in)
			if _, err := os.Stat(dst); code != 2 || err == nil || !strings.Contains(stderr, in) || !strings.Contains(stderr, "convert --to openai") {
				t.Errorf("fix: exit %d, written %v: %s", code, err == nil, stderr)
			}

			stdout, stderr, code := chatlint(t, "", "convert", "--to", "openai", in)
			if code != 0 {
				t.Fatalf("convert: exit %d: %s", code, stderr)
			}
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			if len(lines) != 1 {
				t.Fatalf("convert: %d examples, want 1", len(lines))
			}
			var ex struct {
				Messages []struct{ Role string } `json:"messages"`
			}
			if err := json.Unmarshal([]byte(lines[0]), &ex); err != nil || len(ex.Messages) == 0 {
				t.Errorf("convert: %v, %d messages", err, len(ex.Messages))
			}
			if tc.format != "openai-responses" && !strings.Contains(stderr, "not kept in an OpenAI chat example") {
				t.Errorf("convert names nothing it leaves out:\n%s", stderr)
			}
		})
	}
}
