package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestFixLeavesAbortedCallsUnanswered: the calls of an assistant turn that
// ended with stopReason "aborted" or "error" and have no result are reported
// by check as tool-call-not-executed warnings, not tool-result-missing; fix
// (default pack: transcript) inserts no synthetic result for them, as the
// reference transcript repair does (agent runtimes drop such turns when
// they rebuild the request, so a synthetic result would be an orphan), and
// check after fix reports the same warnings and no tool-result-missing. On
// our own fixture, and on the real pi sessions.
func TestFixLeavesAbortedCallsUnanswered(t *testing.T) {
	const notRun = "warning tool-call-not-executed"
	files := []string{filepath.Join(repo, "fixtures/fix/transcript-aborted/input.jsonl")}
	if _, err := os.Stat(sharedData); err == nil {
		real, _ := filepath.Glob(filepath.Join(sharedData, "agent-sessions/pi/*.jsonl"))
		files = append(files, real...)
	} else {
		t.Log("no ../shared/data: real pi sessions not run:", err)
	}
	seen := 0
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			before, _ := checkJSON(t, "--no-config", in)
			seen += before[notRun]
			out := filepath.Join(t.TempDir(), "out.jsonl")
			if stdout, stderr, code := chatlint(t, "", "fix", "-o", out, in); code != 0 {
				t.Fatalf("fix: exit %d\n%s%s", code, stdout, stderr)
			}
			after, _ := checkJSON(t, "--no-config", out)
			if n := after["error tool-result-missing"] + after["warning tool-result-missing"]; n != 0 {
				t.Errorf("check after fix: %d tool-result-missing remain (before: %v; after: %v)", n, before, after)
			}
			if after[notRun] != before[notRun] {
				t.Errorf("check after fix: %d %s, before %d: fix answered calls that never ran", after[notRun], notRun, before[notRun])
			}
		})
	}
	if seen == 0 {
		t.Fatal("no input has a call of an aborted turn without a result")
	}
}
