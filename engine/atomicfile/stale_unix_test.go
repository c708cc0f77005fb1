//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestCreateRemovesStaleTemps: the first Create in a folder removes temp
// files a killed run left (older than this process, owner gone) and keeps
// those of live processes, newer files and files that are not ours.
func TestCreateRemovesStaleTemps(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	old := started.Add(-time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
		return p
	}
	stale := mk(fmt.Sprintf(".data.jsonl.tmp-%d-123", dead.Process.Pid), old)
	live := mk(fmt.Sprintf(".data.jsonl.tmp-%d-456", os.Getppid()), old)
	fresh := mk(fmt.Sprintf(".data.jsonl.tmp-%d-789", dead.Process.Pid), time.Now().Add(time.Hour))
	other := mk("data.jsonl.tmp-1-2", old)
	f, err := Create(filepath.Join(dir, "data.jsonl"), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp of a dead run was kept")
	}
	for _, p := range []string{live, fresh, other} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", filepath.Base(p))
		}
	}
}

// TestCreateFollowsSymlink: the target is replaced, the link stays.
func TestCreateFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "t.jsonl")
	os.WriteFile(target, []byte("old\n"), 0o640)
	link := filepath.Join(dir, "l.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	got, _ := os.ReadFile(target)
	if fi, _ := os.Stat(target); string(got) != "new\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf("target = %q %v, want new content, mode 0640", got, fi.Mode().Perm())
	}
}
