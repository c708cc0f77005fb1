package jsonl

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExpandHiddenWalksHiddenFolders(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{".git/x.jsonl", "a/y.jsonl"} {
		os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(root, p), nil, 0o644)
	}
	for _, tt := range []struct {
		name   string
		expand func([]string, func(string) bool) ([]string, []string, []error)
		want   []string
	}{
		{"ExpandFunc", ExpandFunc, []string{"a/y.jsonl"}},
		{"ExpandHidden", ExpandHidden, []string{".git/x.jsonl", "a/y.jsonl"}},
	} {
		files, _, errs := tt.expand([]string{root}, IsDataFile)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var got []string
		for _, f := range files {
			rel, _ := filepath.Rel(root, f)
			got = append(got, filepath.ToSlash(rel))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
