package repair

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.jsonl", "a.JSONL", "c.json", "notes.txt", "a.jsonl.bak-20261123T100000Z-0a0b0c0d",
		".a.jsonl.tmp-123", "deep/x.jsonl", ".git/y.jsonl"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, nil, 0o644)
	}
	os.Symlink(filepath.Join(dir, "deep"), filepath.Join(dir, "link"))
	j := func(p string) string { return filepath.Join(dir, p) }

	files, failed := Expand([]string{dir, j("notes.txt"), j("b.jsonl"), j("missing.jsonl"), j("link")})
	want := []string{j("a.JSONL"), j("b.jsonl"), j("deep/x.jsonl"), j("notes.txt"), j("missing.jsonl"), j("link/x.jsonl")}
	if diff := cmp.Diff(want, files); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(failed) != 0 {
		t.Errorf("failed: %+v", failed)
	}
}
