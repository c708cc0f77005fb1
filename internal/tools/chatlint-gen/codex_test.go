package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestCodexSessions: -format codex writes, deterministically, one rollout
// file per session, each of codexMinLines to codexMaxLines lines.
func TestCodexSessions(t *testing.T) {
	gen := func() [][]byte {
		dir := filepath.Join(t.TempDir(), "codex")
		if err := run([]string{"-format", "codex", "-sessions", "3", "-seed", "5", "-q", "-o", dir}, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "rollout-*.jsonl"))
		var out [][]byte
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
		}
		return out
	}
	a, b := gen(), gen()
	if len(a) != 3 || len(b) != 3 {
		t.Fatalf("%d and %d files, want 3", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("session %d differs between two runs", i+1)
		}
		if n := bytes.Count(a[i], []byte("\n")); n < codexMinLines || n > codexMaxLines+20 {
			t.Errorf("session %d: %d lines, want %d-%d", i+1, n, codexMinLines, codexMaxLines)
		}
	}
	if err := run([]string{"-format", "codex", "-o", "-"}, io.Discard, io.Discard); err == nil {
		t.Error("-format codex to stdout succeeded")
	}
}
