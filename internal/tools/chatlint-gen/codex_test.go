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

// TestClaudeCodeSessions: -format claude-code writes, deterministically,
// one session file per session of about -lines lines, which chatlint reads
// as a Claude Code session whose chain runs across its compaction
// boundaries.
func TestClaudeCodeSessions(t *testing.T) {
	gen := func() [][]byte {
		dir := filepath.Join(t.TempDir(), "cc")
		if err := run([]string{"-format", "claude-code", "-sessions", "2", "-lines", "3000", "-q", "-o", dir}, io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(dir, "session-*.jsonl"))
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
	if len(a) != 2 || len(b) != 2 {
		t.Fatalf("%d and %d files, want 2", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Errorf("session %d differs between two runs", i+1)
		}
		if n := bytes.Count(a[i], []byte("\n")); n < 3000 || n > 3030 {
			t.Errorf("session %d: %d lines, want about 3000", i+1, n)
		}
		for _, want := range []string{`"isSidechain":true`, `"subtype":"compact_boundary"`, `"logicalParentUuid":"`, `"type":"summary"`} {
			if !bytes.Contains(a[i], []byte(want)) {
				t.Errorf("session %d holds no %s", i+1, want)
			}
		}
	}
	if err := run([]string{"-format", "chat", "-lines", "10", "-o", "-"}, io.Discard, io.Discard); err == nil {
		t.Error("-lines with -format chat succeeded")
	}
}
