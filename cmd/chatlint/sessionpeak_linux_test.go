//go:build linux

package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/sweep"
)

// TestSessionPeakMemory runs check, fix and stats as processes over a
// 100,000-entry Claude Code session (claudecodegen, 54 MB: what
// `chatlint-gen -format claude-code -lines 100000` writes) and holds them to
// docs/limits.md's promise: check (under every profile) and stats under
// 300 MB, fix under 350 MB. check and fix peaked at 318-326 and 353-366 MB
// while each line's terms had blocks of their own, a session's repeated ids
// a copy per line and each view a 72-byte header; stats at 451-467 MB while
// it decoded every line whole as OPA objects; check --profile openai at
// 512-517 MB while the finetune pack's compiled rules ran on the session
// (they apply to chat records only) and example_tokens(input) built it
// whole.
func TestSessionPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and checks a session of 54 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "session.jsonl")
	writeGeneratedSession(t, in, 100_000)
	for _, c := range []struct {
		name  string
		args  []string
		exit  int
		bound int64
	}{
		// Every seventh result is flagged (tool-result-flagged): exit 1.
		{"check", []string{"check", in}, 1, 300 << 20},
		{"check-openai", []string{"check", "--profile", "openai", in}, 1, 300 << 20},
		{"fix", []string{"fix", "-o", filepath.Join(dir, "out.jsonl"), in}, 0, 350 << 20},
		{"stats", []string{"stats", in}, 0, 300 << 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, peak := peakRun(t, dir, c.args...) // 2 workers
			if code != c.exit || strings.Contains(out, "policy-error") {
				t.Errorf("exit %d, want %d: %.2000s", code, c.exit, out)
			}
			t.Logf("peak RSS %d MB", peak>>20)
			if peak > c.bound {
				t.Errorf("peak RSS %d MB, want at most %d MB", peak>>20, c.bound>>20)
			}
		})
	}
}
