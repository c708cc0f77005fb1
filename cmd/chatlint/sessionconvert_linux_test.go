//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestSessionConvertPeakMemory runs convert --to openai as a process over
// the 100,000-entry Claude Code session of TestSessionPeakMemory (54 MB),
// and with --split turns over one of 8,000 entries (4.3 MB, whose
// examples, each the conversation up to an assistant message, make about
// 350 MB), and holds both to docs/limits.md's promise, under 300 MB with
// 2 workers. The first peaked at 0.94-1.05 GB while the lines were decoded
// whole and Convert made the whole document, every line again in its
// entries, Go values at once; the second grows with its output while a
// unit's examples are held until they are written (10,000 entries: 780 MB).
func TestSessionConvertPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and converts a session of 54 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		name    string
		entries int
		args    []string
		// examples is the number of examples written, 0 for more than one.
		examples int
	}{
		{"100,000 entries", 100_000, nil, 1},
		{"8,000 entries split into turns", 8_000, []string{"--split", "turns"}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := filepath.Join(dir, "session.jsonl")
			writeGeneratedSession(t, in, c.entries)
			out := filepath.Join(dir, "train.jsonl")
			defer os.Remove(out)
			args := append([]string{"convert", "--to", "openai", "-o", out}, c.args...)
			code, stderr, peak := peakRun(t, dir, append(args, in)...) // 2 workers
			// Warnings only (flagged results, reasoning, tools made up,
			// the examples' length): exit 0.
			if code != 0 {
				t.Errorf("exit %d, want 0: %.2000s", code, lastLines([]byte(stderr), 3))
			}
			if c.examples > 0 && !strings.Contains(stderr, fmt.Sprintf("into %d openai example(s)", c.examples)) {
				t.Errorf("want %d example(s): %s", c.examples, lastLines([]byte(stderr), 1))
			}
			t.Logf("peak RSS %d MB", peak>>20)
			if peak > 300<<20 {
				t.Errorf("peak RSS %d MB, want at most 300 MB", peak>>20)
			}
		})
	}
}

// writeGeneratedSession writes a generated Claude Code session of n entries
// (claudecodegen) to path.
func writeGeneratedSession(t *testing.T, path string, n int) {
	t.Helper()
	var data bytes.Buffer
	for _, line := range claudecodegen.Session(n) {
		data.Write(line)
		data.WriteByte('\n')
	}
	if err := os.WriteFile(path, data.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// lastLines is the last n lines of b.
func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
