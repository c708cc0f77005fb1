//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCheckNotesSkippedFIFO: a FIFO named like data in a folder is skipped
// (reading it could block forever) with a note on stderr, not silently.
func TestCheckNotesSkippedFIFO(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "a.jsonl", cleanRecord+"\n")
	fifo := filepath.Join(dir, "pipe.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	_, stderr, code := chatlint(t, "", "check", dir)
	if code != 0 || !strings.Contains(stderr, "note: "+fifo+" skipped: not a regular file") {
		t.Errorf("exit %d, stderr %q; want 0 and a note naming %s", code, stderr, fifo)
	}
}
