//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

// holdOpen starts a process that holds p open with flag (as an agent holds
// its transcript) until the test ends.
func holdOpen(t *testing.T, p string, flag int) {
	t.Helper()
	f, err := os.OpenFile(p, flag, 0)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sleep", "60")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	f.Close()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	// The child holds the descriptor from its start; wait until /proc shows it.
	for i := 0; i < 100; i++ {
		if _, err := os.Stat(filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "fd", "3")); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestReplaceRefusesLiveWriter: fix --in-place and repair replaced a
// transcript an agent still held open for writing, and every line it
// wrote afterwards went to the replaced inode and was lost. They now
// leave such a file as it is (exit 2, naming the process), unless
// --ignore-writers; a process holding it open only to read is no writer.
func TestReplaceRefusesLiveWriter(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		data string
	}{
		{"fix --in-place", []string{"fix", "--in-place"}, needsFix + "\n"},
		{"repair", []string{"repair"}, cleanRecord + "\nnot json\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := writeFile(t, dir, "a.jsonl", c.data)
			holdOpen(t, p, os.O_WRONLY|os.O_APPEND)
			if ws, _ := atomicfile.OpenWriters(p); len(ws) != 1 || ws[0].Command != "sleep" {
				t.Fatalf("OpenWriters = %v, want the sleep process", ws)
			}
			stdout, stderr, code := chatlint(t, "", append(c.args, p)...)
			if code != 2 || !strings.Contains(stdout+stderr, "open for writing by process") || !strings.Contains(stdout+stderr, "(sleep)") {
				t.Errorf("exit %d\n%s%s\nwant 2 naming the writer", code, stdout, stderr)
			}
			if got := mustRead(t, p); got != c.data {
				t.Errorf("file replaced: %q", got)
			}
			if baks := backups(t, p); len(baks) != 0 {
				t.Errorf("backups left: %v", baks)
			}
			if _, err := os.Stat(p + ".rejects.jsonl"); err == nil {
				t.Error("rejects written for a file not replaced")
			}
			if _, stderr, code := chatlint(t, "", append(append(c.args, "--ignore-writers"), p)...); code != 0 {
				t.Errorf("--ignore-writers: exit %d: %s", code, stderr)
			}
			if mustRead(t, p) == c.data {
				t.Error("--ignore-writers did not replace the file")
			}
		})
	}
	t.Run("a reader is no writer", func(t *testing.T) {
		dir := t.TempDir()
		p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
		holdOpen(t, p, os.O_RDONLY)
		if _, stderr, code := chatlint(t, "", "fix", "--in-place", p); code != 0 {
			t.Errorf("exit %d: %s", code, stderr)
		}
	})
}
