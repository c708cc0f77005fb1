//go:build unix

package jsonl

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A walk yields regular files only: a FIFO would block the run, a device
// never ends. A symbolic link to a regular file is followed.
func TestExpandRegularFilesOnly(t *testing.T) {
	root := tree(t, "d/a.jsonl", "other/real.jsonl")
	d := filepath.Join(root, "d")
	if err := syscall.Mkfifo(filepath.Join(d, "fifo.jsonl"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	for name, target := range map[string]string{
		"zero.jsonl":   "/dev/zero",
		"link.jsonl":   filepath.Join(root, "other/real.jsonl"),
		"dir.jsonl":    filepath.Join(root, "other"),
		"broken.jsonl": filepath.Join(root, "nope"),
	} {
		if err := os.Symlink(target, filepath.Join(d, name)); err != nil {
			t.Fatal(err)
		}
	}
	files, errs := Expand([]string{d})
	want := []string{filepath.Join(d, "a.jsonl"), filepath.Join(d, "link.jsonl")}
	if diff := cmp.Diff(want, files); diff != "" || len(errs) > 0 {
		t.Errorf("files (-want +got):\n%s\nerrors: %v", diff, errs)
	}

	// Named on the command line, a non-regular file is an error naming it.
	for _, arg := range []string{"/dev/zero", filepath.Join(d, "fifo.jsonl"), filepath.Join(d, "zero.jsonl")} {
		files, errs := Expand([]string{arg})
		if len(files) != 0 || len(errs) != 1 || !errors.Is(errs[0], ErrNotRegular) {
			t.Errorf("Expand(%s) = %v, %v; want one ErrNotRegular", arg, files, errs)
			continue
		}
		var pe *os.PathError
		if !errors.As(errs[0], &pe) || pe.Path != arg {
			t.Errorf("error %v does not name %s", errs[0], arg)
		}
	}
}

// A folder named through a symbolic link is walked like the folder itself,
// even when the link's name starts with a dot.
func TestExpandLinkedDirectory(t *testing.T) {
	root := tree(t, "real/a.jsonl", "real/sub/b.json")
	for _, name := range []string{"link", ".hidden-link"} {
		link := filepath.Join(root, name)
		if err := os.Symlink(filepath.Join(root, "real"), link); err != nil {
			t.Fatal(err)
		}
		files, errs := Expand([]string{link})
		want := []string{filepath.Join(link, "a.jsonl"), filepath.Join(link, "sub/b.json")}
		if diff := cmp.Diff(want, files); diff != "" || len(errs) > 0 {
			t.Errorf("%s: files (-want +got):\n%s\nerrors: %v", name, diff, errs)
		}
	}
}
