package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/fix"
	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// TestFixRejectsDurableBeforeRename: when the fixed file is renamed into
// place, its rejects are already in the rejects file (a kill right there
// used to leave a fixed file whose dropped message was in no rejects file).
// When the rename fails, the rejects appended are taken back out: a rejects
// file that existed keeps its old bytes, a new one is removed.
func TestFixRejectsDurableBeforeRename(t *testing.T) {
	old := fix.CommitFile
	defer func() { fix.CommitFile = old }()
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
	rejects := p + jsonl.RejectsSuffix
	var atRename string
	fix.CommitFile = func(f *atomicfile.File) error {
		b, _ := os.ReadFile(rejects) // what a kill at the rename would leave
		atRename = string(b)
		return old(f)
	}
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", p); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(atRename, `"rule":"tool-result-unknown-id"`) {
		t.Errorf("at the rename the rejects file held %q, want the dropped message", atRename)
	}
	if got := mustRead(t, rejects); got != atRename {
		t.Errorf("rejects after the run %q, at the rename %q", got, atRename)
	}

	// A failing rename takes the rejects back out.
	for _, before := range []string{"", `{"earlier":"reject"}` + "\n"} {
		dir := t.TempDir()
		p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
		rejects := p + jsonl.RejectsSuffix
		if before != "" {
			writeFile(t, dir, "a.jsonl"+jsonl.RejectsSuffix, before)
		}
		fix.CommitFile = func(f *atomicfile.File) error {
			f.Abort()
			return errors.New("rename: simulated failure")
		}
		if _, _, code := chatlint(t, "", "fix", "--in-place", p); code != 2 {
			t.Errorf("failed rename: exit %d, want 2", code)
		}
		got, err := os.ReadFile(rejects)
		switch {
		case before == "" && err == nil:
			t.Errorf("a new rejects file was left for a file not written: %q", got)
		case before != "" && string(got) != before:
			t.Errorf("rejects file = %q, want its old bytes %q", got, before)
		}
	}
}
