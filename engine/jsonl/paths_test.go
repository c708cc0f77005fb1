package jsonl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// tree creates files (with parent directories) under a new temporary
// directory and returns it.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if strings.HasSuffix(f, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestExpand(t *testing.T) {
	root := tree(t,
		"data/b.jsonl",
		"data/a.json",
		"data/C.JSONL",
		"data/notes.txt",
		"data/readme.md",
		"data/sub/z.jsonl",
		"data/sub/deeper/y.json",
		"data/sub/deeper/x.jsonl.bak",
		"data/.git/objects/o.jsonl",
		"data/.hidden/h.jsonl",
		"data/sub/.cache/c.json",
		"data/.dotfile.jsonl",
		"other/o.jsonl",
		"loose.txt",
		"loose.jsonl",
		".hiddenroot/in.jsonl",
		"empty/",
	)
	p := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	tests := []struct {
		name     string
		args     []string
		want     []string
		wantErrs int
	}{
		{name: "nothing", args: nil, want: nil},
		{name: "one file", args: []string{p("loose.jsonl")}, want: []string{p("loose.jsonl")}},
		{
			name: "named file of any extension is kept",
			args: []string{p("loose.txt"), p("data/readme.md")},
			want: []string{p("data/readme.md"), p("loose.txt")},
		},
		{
			name: "directory walked recursively, sorted, data files only, hidden dirs skipped",
			args: []string{p("data")},
			want: []string{
				p("data/.dotfile.jsonl"),
				p("data/C.JSONL"),
				p("data/a.json"),
				p("data/b.jsonl"),
				p("data/sub/deeper/y.json"),
				p("data/sub/z.jsonl"),
			},
		},
		{
			name: "hidden directory named explicitly is walked",
			args: []string{p(".hiddenroot")},
			want: []string{p(".hiddenroot/in.jsonl")},
		},
		{
			name: "several arguments merged and sorted",
			args: []string{p("other"), p("loose.txt"), p("data/sub")},
			want: []string{
				p("data/sub/deeper/y.json"),
				p("data/sub/z.jsonl"),
				p("loose.txt"),
				p("other/o.jsonl"),
			},
		},
		{
			name: "duplicates removed",
			args: []string{p("data/sub"), p("data/sub/z.jsonl"), p("data/sub"), p("data/sub/z.jsonl")},
			want: []string{p("data/sub/deeper/y.json"), p("data/sub/z.jsonl")},
		},
		{
			name: "trailing slash on a directory",
			args: []string{p("other") + string(filepath.Separator)},
			want: []string{p("other/o.jsonl")},
		},
		{
			name:     "missing path reported, others still returned",
			args:     []string{p("nope.jsonl"), p("other"), p("missing-dir"), p("loose.jsonl")},
			want:     []string{p("loose.jsonl"), p("other/o.jsonl")},
			wantErrs: 2,
		},
		{
			name: "stdin kept",
			args: []string{"-", p("loose.jsonl")},
			want: []string{"-", p("loose.jsonl")},
		},
		{
			name: "stdin once",
			args: []string{"-", "-"},
			want: []string{"-"},
		},
		{name: "empty directory", args: []string{p("empty")}, want: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, errs := Expand(tc.args)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
			if len(errs) != tc.wantErrs {
				t.Errorf("got %d errors %v, want %d", len(errs), errs, tc.wantErrs)
			}
			for _, err := range errs {
				if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("error %v is not fs.ErrNotExist", err)
				}
			}
		})
	}
}

func TestExpandRelativeDirectory(t *testing.T) {
	root := tree(t, "d/x.jsonl", "d/e/y.json", "d/.git/z.jsonl")
	t.Chdir(root)
	got, errs := Expand([]string{".", "d/x.jsonl"})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	want := []string{filepath.Join("d", "e", "y.json"), filepath.Join("d", "x.jsonl")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
}

func TestExpandUnreadableSubdirectory(t *testing.T) {
	if os.Getuid() == 0 {
		t.Skip("root reads every directory")
	}
	root := tree(t, "ok/a.jsonl", "locked/b.jsonl")
	locked := filepath.Join(root, "locked")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	got, errs := Expand([]string{root})
	if diff := cmp.Diff([]string{filepath.Join(root, "ok", "a.jsonl")}, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(errs) != 1 {
		t.Errorf("errors = %v, want one", errs)
	}
}

// TestExpandSkipsRejects: fix's rejects files beside the data are not data.
func TestExpandSkipsRejects(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "a.jsonl.rejects.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, errs := Expand([]string{dir, filepath.Join(dir, "a.jsonl.rejects.jsonl")})
	want := []string{filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "a.jsonl.rejects.jsonl")}
	if len(errs) > 0 || !slices.Equal(files, want) {
		t.Errorf("got %v %v, want %v (named explicitly, the rejects file is read)", files, errs, want)
	}
}
