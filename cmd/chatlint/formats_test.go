package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The formats of fixtures/formats: check names each file's format and
// reports its defects; fix repairs it in its own layout — a record out for
// every record in, lines no rule touches byte for byte, what it drops in
// the rejects — or refuses a format it cannot rewrite (exit 2, naming the
// file, writing nothing).
func TestFormatFixtures(t *testing.T) {
	t.Chdir(repo)
	for _, tc := range []struct {
		file     string
		format   string
		fixable  bool
		fixCode  int
		settled  []string // rules fix is to silence
		dropsRec int      // records fix drops whole
		clean    bool     // check finds nothing
	}{
		{"sharegpt.jsonl", "sharegpt", true, 0, []string{"tool-result-orphan"}, 0, false},
		{"sharegpt-hermes.jsonl", "sharegpt", true, 0, nil, 0, false},
		{"sharegpt-array.json", "sharegpt", true, 0, nil, 0, false},
		{"gemini.jsonl", "gemini", true, 0, nil, 0, false},
		{"openai-batch-input.jsonl", "openai-batch-input", true, 0, []string{"tool-result-orphan"}, 0, false},
		{"openai-batch-output.jsonl", "openai-batch-output", false, 2, nil, 0, false},
		{"anthropic-batch-requests.jsonl", "anthropic-batch", true, 0, []string{"tool-result-orphan"}, 0, false},
		{"anthropic-batch-results.jsonl", "anthropic-batch", false, 2, nil, 0, false},
		{"goose-session.jsonl", "goose-session", false, 2, nil, 0, false},
		{"preference.jsonl", "preference", true, 0, nil, 0, false},
		{"instruction.jsonl", "instruction", false, 2, nil, 0, false},
		{"instruction-alpaca.jsonl", "instruction", false, 2, nil, 0, false},
		{"text.jsonl", "text", false, 2, nil, 0, false},
		{"bedrock-conversation.jsonl", "bedrock-conversation", false, 2, nil, 0, false},
		{"gemini-cli-session.json", "gemini-cli", false, 2, nil, 0, false},
		{"gemini-cli-session-lines.jsonl", "gemini-cli", false, 2, nil, 0, false},
		{"swe-agent.traj", "swe-agent", false, 2, nil, 0, false},
		{"mini-swe-agent.traj.json", "mini-swe-agent", false, 2, nil, 0, false},
		{"openai-responses-messages.json", "openai-responses", false, 2, nil, 0, false},
		{"openai-responses-items.jsonl", "openai-responses", false, 2, nil, 0, false},
		{"openai-agents-runstate.json", "openai-agents-runstate", false, 2, nil, 0, false},
		{"langchain-state.json", "langchain", false, 2, nil, 0, false},
		{"langchain-runs.jsonl", "langchain", false, 2, nil, 0, false},
		{"cline-api-conversation-history.json", "cline", false, 2, nil, 0, false},
		{"openhands-events.json", "openhands", false, 2, nil, 0, false},
		{"xlam.jsonl", "xlam", false, 2, nil, 0, false},
		// Tool calls without ids answered by results by order (TRL), calls
		// as LLaMA-Factory content parts, Hermes calls written as Python
		// dicts: clean, and fix changes nothing (it leaves the record whose one
		// result answers two calls as it is, with a note: exit 1).
		{"trl-tool-calls.jsonl", "chat", true, 0, nil, 0, true},
		{"llamafactory-v1.jsonl", "chat", true, 1, nil, 0, true}, // one result for two calls: left as it is, with a note
		{"sharegpt-hermes-python.jsonl", "sharegpt", true, 0, nil, 0, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			in := filepath.Join("fixtures/formats", tc.file)
			const dir = "fixtures/formats/golden"
			base := strings.TrimSuffix(tc.file, filepath.Ext(tc.file))
			stdout, stderr, code := chatlint(t, "", "check", "-v", in)
			if code != 1 && code != 0 {
				t.Fatalf("check: exit %d: %s", code, stderr)
			}
			if !strings.Contains(stdout, in+": "+tc.format+",") {
				t.Errorf("check -v does not name the format %s:\n%s", tc.format, stdout)
			}
			golden(t, dir, base+".check.txt", []byte(stdout))
			if tc.clean && code != 0 {
				t.Errorf("check: exit %d, want a clean file:\n%s", code, stdout)
			}

			out := filepath.Join(t.TempDir(), "out.jsonl")
			_, stderr, code = chatlint(t, "", "fix", "-o", out, in)
			if code != tc.fixCode {
				t.Fatalf("fix: exit %d, want %d: %s", code, tc.fixCode, stderr)
			}
			if !tc.fixable {
				if !strings.Contains(stderr, in) {
					t.Errorf("the refusal does not name the file: %s", stderr)
				}
				if _, err := os.Stat(out); err == nil {
					t.Error("a refused file was written")
				}
				return
			}
			fixed := mustRead(t, out)
			rejects, _ := os.ReadFile(out + ".rejects.jsonl")
			golden(t, dir, base+".fixed.jsonl", []byte(fixed))
			golden(t, dir, base+".rejects.jsonl", rejects)
			if filepath.Ext(in) == ".json" {
				// A .json array is written as JSON Lines: one line per element
				// kept, its lines no longer those of the input.
				if got, want := strings.Count(fixed, "\n"), strings.Count(mustRead(t, in), `"conversations"`); got != want {
					t.Errorf("%d records out for %d in", got, want)
				}
				return
			}

			inLines := strings.SplitAfter(mustRead(t, in), "\n")
			outLines := strings.SplitAfter(fixed, "\n")
			if len(outLines) != len(inLines)-tc.dropsRec {
				t.Fatalf("%d lines out for %d in", len(outLines), len(inLines))
			}
			touched := map[int]bool{}
			for _, r := range strings.Split(strings.TrimSpace(string(rejects)), "\n") {
				if r == "" {
					continue
				}
				var rej struct{ Line int }
				if err := json.Unmarshal([]byte(r), &rej); err != nil {
					t.Fatal(err)
				}
				touched[rej.Line] = true
			}
			for i := range inLines {
				if !touched[i+1] && inLines[i] != outLines[i] {
					t.Errorf("line %d changed though no rule touched it:\n%s\n%s", i+1, inLines[i], outLines[i])
				}
			}
			after, _, _ := chatlint(t, "", "check", out)
			for _, rule := range tc.settled {
				if strings.Contains(after, " "+rule+":") {
					t.Errorf("%s still fires after fix:\n%s", rule, after)
				}
			}
		})
	}
}

// The real ShareGPT and batch files of ../shared/data: check reads them
// with no error but the one real defect the Glaive file has (a call passing
// a list where its schema wants a number, record at line 8001); fix leaves a clean batch input byte for byte, and
// refuses the batch output without writing, and fixes a .json ShareGPT
// array into JSON Lines with every record kept or rejected.
func TestFormatsRealData(t *testing.T) {
	needSharedData(t)
	glaive := filepath.Join(sharedData, "tool-tags-sharegpt/llamafactory-glaive-toolcall-sharegpt.json")
	wantGlaive := map[string]int{"error tool-arguments-schema": 1}
	if counts, _ := checkJSON(t, glaive); !reflect.DeepEqual(counts, wantGlaive) {
		t.Errorf("glaive: %v, want %v", counts, wantGlaive)
	}
	for _, rel := range []string{
		"tool-tags-sharegpt/fastchat-dummy-conversation-sharegpt.json",
		"tool-tags-sharegpt/axolotl-sharegpt-conversation.json",
		"tool-tags-sharegpt/axolotl-sharegpt-conversation-missingturns.json",
		"proxy-logs/groq-batch-input.jsonl",
		"proxy-logs/groq-batch-output.jsonl",
		"agent-sessions/goose/agentscribe-goose-sample-session.jsonl",
	} {
		if counts, errs := checkJSON(t, filepath.Join(sharedData, rel)); errs != 0 {
			t.Errorf("%s: %v", rel, counts)
		}
	}
	dir := t.TempDir()
	in := filepath.Join(sharedData, "proxy-logs/groq-batch-input.jsonl")
	out := filepath.Join(dir, "in.jsonl")
	if _, stderr, code := chatlint(t, "", "fix", "-o", out, in); code != 0 || mustRead(t, out) != mustRead(t, in) {
		t.Errorf("fix of a clean batch input: exit %d, changed: %v: %s", code, mustRead(t, out) != mustRead(t, in), stderr)
	}
	for _, rel := range []string{"proxy-logs/groq-batch-output.jsonl"} {
		out := filepath.Join(dir, filepath.Base(rel))
		_, stderr, code := chatlint(t, "", "fix", "-o", out, filepath.Join(sharedData, rel))
		if _, err := os.Stat(out); code != 2 || err == nil || !strings.Contains(stderr, filepath.Base(rel)) {
			t.Errorf("fix %s: exit %d, written %v: %s", rel, code, err == nil, stderr)
		}
	}
	out = filepath.Join(dir, "glaive.jsonl")
	if _, stderr, code := chatlint(t, "", "fix", "-o", out, glaive); code != 0 {
		t.Fatalf("fix glaive: exit %d: %s", code, stderr)
	}
	rejects, _ := os.ReadFile(out + ".rejects.jsonl")
	if got := strings.Count(mustRead(t, out), "\n"); got != 300 {
		t.Errorf("fix glaive: %d records out of 300 (rejects: %s)", got, rejects)
	}
	if counts, _ := checkJSON(t, out); !reflect.DeepEqual(counts, wantGlaive) {
		t.Errorf("check after fix of glaive: %v, want %v (no cleanup pack repairs arguments)", counts, wantGlaive)
	}
}
