package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stats on a file no format claims does not pass a row of zeros for a
// count: the row names the file, check's finding is on stderr, exit 1.
func TestStatsUnrecognizedFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "notes.jsonl")
	os.WriteFile(f, []byte(`{"title":"x","body":"y"}`+"\n"), 0o644)
	out, errOut, code := chatlint(t, "", "stats", f)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(out, f+" (unrecognized format: not counted)") {
		t.Errorf("the table does not name the file:\n%s", out)
	}
	if !strings.Contains(errOut, f+":1: error unrecognized-format:") {
		t.Errorf("stderr:\n%s", errOut)
	}
}
