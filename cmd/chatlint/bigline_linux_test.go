//go:build linux

package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/internal/sweep"
)

// vmHWM reads the peak RSS from a copy of /proc/self/status.
func vmHWM(t *testing.T, status string) int64 {
	data, err := os.ReadFile(status)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestBigLinesPeakMemory runs check and fix as processes over four records of
// 60 MB each and holds them to the bounds docs/limits.md states: 300 MB of
// peak RSS for check, 350 MB for fix (which holds the fixed record until it
// is written in order), for lines under --max-line-size. They peaked at 440–550 MB: the
// reader read the next huge record beside the one being checked, kept its
// own copy of each, and the repeat cache pinned two copies of one.
func TestBigLinesPeakMemory(t *testing.T) {
	if testing.Short() || !sweep.Full() {
		t.Skip("writes 240 MB: runs under -tags exhaustive (.ci/run)")
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	content := strings.Repeat("x", 60<<20)
	for range 4 {
		w.WriteString(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"` + content + `"}]}` + "\n")
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, c := range []struct {
		args  []string
		bound int64
	}{
		{[]string{"check", "--workers", "2", in}, 300 << 20},
		{[]string{"fix", "--workers", "2", "-o", filepath.Join(dir, "out.jsonl"), in}, 350 << 20},
	} {
		args := c.args
		cmd := chatlintProcess(args...)
		hwm := filepath.Join(dir, "status")
		cmd.Env = append(cmd.Env, "CHATLINT_TEST_HWM="+hwm)
		out, err := cmd.CombinedOutput()
		if cmd.ProcessState == nil {
			t.Fatalf("%s: %v", args[0], err)
		}
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("%s: exit %d: %s", args[0], code, out)
		}
		peak := vmHWM(t, hwm)
		if peak > c.bound {
			t.Errorf("%s: peak RSS %d MB, want at most %d MB", args[0], peak>>20, c.bound>>20)
		}
	}
}
