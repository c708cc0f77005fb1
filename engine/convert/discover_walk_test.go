package convert

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// discover walks as check's walker does, with the reference's own rules:
// hidden folders are sessions too (Python's rglob), and a logs folder given
// as a symbolic link is followed.
func TestDiscoverWalk(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "logs")
	for _, p := range []string{".hidden/x.jsonl", "a/x.jsonl", "a/x.rejects.jsonl", "b.json"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), nil, 0o644)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip(err)
	}
	want := []string{".hidden/x.jsonl", "a/x.jsonl", "a/x.rejects.jsonl"}
	for _, r := range []string{root, link} {
		got, errs := discover(r)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var names []string
		for _, s := range got {
			names = append(names, strings.Join(s.Rel, "/"))
			if want := r + "/" + strings.Join(s.Rel, "/"); s.Path != want {
				t.Errorf("path %q, want %q", s.Path, want)
			}
		}
		if diff := cmp.Diff(want, names); diff != "" {
			t.Errorf("%s (-want +got):\n%s", r, diff)
		}
	}
}
