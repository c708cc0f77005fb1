package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/chatlint/chatlint/internal/codexgen"
)

// TestCheckReportsTheResultsFixMoves: a tool result separated from its
// call by another message (a Codex developer message, a user turn) is
// reported by check as tool-result-separated exactly as often as fix moves
// one back (openai-tools' tool-result-misplaced), and check after fix
// reports none. Before, check was silent while fix moved them: on a
// compacted Codex rollout, 28 results.
func TestCheckReportsTheResultsFixMoves(t *testing.T) {
	dir := t.TempDir()
	rollout := filepath.Join(dir, "rollout.jsonl")
	if err := os.WriteFile(rollout, append(bytes.Join(codexgen.Rollout(1500), []byte{'\n'}), '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	inputs := []string{
		rollout,
		filepath.Join(repo, "policies/integrity/tests/tool-result-separated/bad.jsonl"),
		filepath.Join(repo, "policies/integrity/tests/tool-result-separated--codex/bad.jsonl"),
		filepath.Join(repo, "fixtures/fix/openai-proxy-log/input.jsonl"),
	}
	moved := regexp.MustCompile(`(?m)^\s+tool-result-misplaced\s+(\d+)$`)
	for _, in := range inputs {
		t.Run(filepath.Base(filepath.Dir(in))+"/"+filepath.Base(in), func(t *testing.T) {
			before, _ := checkJSON(t, "--no-config", in)
			out := filepath.Join(t.TempDir(), "out.jsonl")
			stdout, stderr, code := chatlint(t, "", "fix", "-o", out, in)
			if code == 2 {
				t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
			}
			n := 0
			if m := moved.FindStringSubmatch(stdout); m != nil {
				n, _ = strconv.Atoi(m[1])
			}
			if n == 0 || before["error tool-result-separated"] != n {
				t.Errorf("check reports %d tool-result-separated, fix moves %d results\n%s", before["error tool-result-separated"], n, stdout)
			}
			if after, _ := checkJSON(t, "--no-config", out); after["error tool-result-separated"] != 0 {
				t.Errorf("check after fix: %d tool-result-separated", after["error tool-result-separated"])
			}
		})
	}
}
