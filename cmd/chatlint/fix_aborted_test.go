package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFixThenCheckAnswersAbortedCalls: the calls of an assistant turn that
// ended with stopReason "aborted" or "error" are reported by check as
// tool-result-missing; fix (default pack: transcript) answers them with a
// synthetic "not executed" error result, so check on the output reports
// none. On our own fixture, and on the real pi sessions (5 and 18 such
// calls survived fix before).
func TestFixThenCheckAnswersAbortedCalls(t *testing.T) {
	files := []string{filepath.Join(repo, "fixtures/fix/transcript-aborted/input.jsonl")}
	if _, err := os.Stat(sharedData); err == nil {
		real, _ := filepath.Glob(filepath.Join(sharedData, "agent-sessions/pi/*.jsonl"))
		files = append(files, real...)
	} else {
		t.Log("no ../shared/data: real pi sessions not run:", err)
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			before, _ := checkJSON(t, "--no-config", in)
			if before["error tool-result-missing"]+before["warning tool-result-missing"] == 0 {
				t.Fatalf("the input has no tool-result-missing to fix: %v", before)
			}
			out := filepath.Join(t.TempDir(), "out.jsonl")
			if stdout, stderr, code := chatlint(t, "", "fix", "-o", out, in); code != 0 {
				t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
			}
			after, _ := checkJSON(t, "--no-config", out)
			if n := after["error tool-result-missing"] + after["warning tool-result-missing"]; n != 0 {
				t.Errorf("check after fix: %d tool-result-missing remain (before: %v; after: %v)", n, before, after)
			}
		})
	}
}
