//go:build linux

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestSessionConvertPeakMemory runs convert --to openai as a process over
// the 100,000-entry Claude Code session of TestSessionPeakMemory (54 MB)
// and holds it to docs/limits.md's promise, under 300 MB with 2 workers.
// It peaked at 0.94-1.05 GB while the lines were decoded whole and Convert
// made the whole document, every line again in its entries, Go values at
// once.
func TestSessionConvertPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and converts a session of 54 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "session.jsonl")
	var data bytes.Buffer
	for _, line := range claudecodegen.Session(100_000) {
		data.Write(line)
		data.WriteByte('\n')
	}
	if err := os.WriteFile(in, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	data = bytes.Buffer{}
	out := filepath.Join(dir, "train.jsonl")
	cmd := chatlintProcess("convert", "--to", "openai", "--workers", "2", "-o", out, in)
	hwm := filepath.Join(dir, "status")
	cmd.Env = append(cmd.Env, "CHATLINT_TEST_HWM="+hwm)
	stderr, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil {
		t.Fatal(err)
	}
	// Warnings only (flagged results, reasoning, tools made up, the
	// example's length): exit 0, one example.
	if code := cmd.ProcessState.ExitCode(); code != 0 || !strings.Contains(string(stderr), "into 1 openai example(s)") {
		t.Errorf("exit %d, want 0 and one example: %.2000s", code, lastLines(stderr, 3))
	}
	if b, err := os.ReadFile(out); err != nil || bytes.Count(b, []byte("\n")) != 1 {
		t.Errorf("the output holds %d line(s) (%v), want 1", bytes.Count(b, []byte("\n")), err)
	}
	peak := vmHWM(t, hwm)
	t.Logf("peak RSS %d MB", peak>>20)
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MB, want at most 300 MB", peak>>20)
	}
}

// lastLines is the last n lines of b.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
