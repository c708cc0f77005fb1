//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/denselines"
	"github.com/chatlint/chatlint/internal/sweep"
)

// TestDenseLinesPeakMemory runs check as a process over the dense records of
// docs/limits.md's table (scripts/dense-lines), at the table's sizes, and
// holds each to what the page states: under 300 MB for the records whose
// dense value no rule builds, and for all of them the record checked, with
// its findings, rather than a policy-error. The record of 800,000 tool calls
// was given one rule time limit for its two messages and always ended in
// policy-error (exit 2).
func TestDenseLinesPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and checks records of up to 60 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	for _, c := range []struct {
		shape string
		size  int
		exit  int
		bound int64 // 0: not bounded (docs/limits.md says why)
	}{
		{"member", 60 << 20, 0, 300 << 20},
		{"parts", 60 << 20, 0, 300 << 20},
		{"calls", 60 << 20, 1, 0},
		{"messages", 32 << 20, 0, 0},
	} {
		in := filepath.Join(dir, c.shape+".jsonl")
		f, err := os.Create(in)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := denselines.Write(f, c.shape, c.size); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		cmd := chatlintProcess("check", "--workers", "2", in)
		hwm := filepath.Join(dir, "status")
		cmd.Env = append(cmd.Env, "CHATLINT_TEST_HWM="+hwm)
		out, err := cmd.CombinedOutput()
		if cmd.ProcessState == nil {
			t.Fatalf("%s: %v", c.shape, err)
		}
		if code := cmd.ProcessState.ExitCode(); code != c.exit || strings.Contains(string(out), "policy-error") {
			t.Errorf("%s: exit %d, want %d: %s", c.shape, code, c.exit, out)
		}
		if peak := vmHWM(t, hwm); c.bound > 0 && peak > c.bound {
			t.Errorf("%s: peak RSS %d MB, want at most %d MB", c.shape, peak>>20, c.bound>>20)
		}
		os.Remove(in)
	}
}

// TestDenseFixPeakMemory runs fix as a process over the records of 60 MB of
// numbers in a message's unknown member and of 2.3 million content parts:
// fix builds a message's raw only as far as its cleanup rules read it, and
// content a rule only compares is a digest, so neither is built and fix
// stays under its 350 MB bound (it built each record whole: 0.9-1.1 GB).
func TestDenseFixPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes and fixes records of 60 MB: runs under -tags exhaustive (.ci/run)")
	}
	for _, shape := range []string{"member", "parts"} {
		t.Run(shape, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, shape+".jsonl")
			f, err := os.Create(in)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := denselines.Write(f, shape, 60<<20); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			cmd := chatlintProcess("fix", "--workers", "2", "-o", filepath.Join(dir, "out.jsonl"), in)
			hwm := filepath.Join(dir, "status")
			cmd.Env = append(cmd.Env, "CHATLINT_TEST_HWM="+hwm)
			out, err := cmd.CombinedOutput()
			if cmd.ProcessState == nil {
				t.Fatal(err)
			}
			if code := cmd.ProcessState.ExitCode(); code != 0 {
				t.Errorf("exit %d, want 0: %s", code, out)
			}
			if peak := vmHWM(t, hwm); peak > 350<<20 {
				t.Errorf("peak RSS %d MB, want at most 350 MB", peak>>20)
			}
		})
	}
}
