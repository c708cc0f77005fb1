//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/fix"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// TestFixInPlaceFollowsSymlink: the link's target is fixed and the link
// stays a link (it was replaced by a regular file).
func TestFixInPlaceFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := writeFile(t, dir, "real.jsonl", needsFix+"\n")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("real.jsonl", link); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", link); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link.jsonl is no longer a symbolic link: %v %v", fi, err)
	}
	if got := mustRead(t, target); got != fixedRec+"\n" {
		t.Errorf("target = %q, want the fixed record", got)
	}
}

// TestFixModes: a read-only input keeps its mode in place; a private input's
// output, rejects and backup are private too (rejects were always 0644).
func TestFixModes(t *testing.T) {
	dir := t.TempDir()
	ro := writeFile(t, dir, "ro.jsonl", needsFix+"\n")
	os.Chmod(ro, 0o444)
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", ro); code != 0 {
		t.Fatalf("in place 0444: exit %d: %s", code, stderr)
	}
	if fi, _ := os.Stat(ro); fi.Mode().Perm() != 0o444 {
		t.Errorf("0444 input is %v after fix --in-place", fi.Mode().Perm())
	}

	priv := writeFile(t, dir, "priv.jsonl", needsFix+"\n")
	os.Chmod(priv, 0o600)
	out := filepath.Join(dir, "out.jsonl")
	if _, stderr, code := chatlint(t, "", "fix", "-o", out, priv); code != 0 {
		t.Fatalf("-o: exit %d: %s", code, stderr)
	}
	if _, stderr, code := chatlint(t, "", "fix", "--in-place", priv); code != 0 {
		t.Fatalf("in place 0600: exit %d: %s", code, stderr)
	}
	baks, _ := filepath.Glob(priv + ".bak-*")
	for _, p := range append([]string{out, out + jsonl.RejectsSuffix, priv + jsonl.RejectsSuffix}, baks...) {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is %v, more permissive than its 0600 input", filepath.Base(p), fi.Mode().Perm())
		}
	}
}

// TestFixInPlaceFileChanged: a line appended while fix runs (here, while it
// writes the backup) is not lost: the file is left as it is and fix fails
// with "file changed while fixing", claiming nothing fixed.
func TestFixInPlaceFileChanged(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
	appended := `{"id":"late","messages":[{"role":"user","content":"x"},{"role":"assistant","content":"y"}]}` + "\n"
	old := fix.BackupFile
	defer func() { fix.BackupFile = old }()
	fix.BackupFile = func(path string, now time.Time) (string, error) {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return "", err
		}
		f.WriteString(appended)
		f.Close()
		return old(path, now)
	}
	stdout, stderr, code := chatlint(t, "", "fix", "--in-place", p)
	if code != 2 || !strings.Contains(stderr, "file changed while fixing") {
		t.Fatalf("exit %d, stderr %q; want 2 and file changed while fixing", code, stderr)
	}
	if got := mustRead(t, p); got != needsFix+"\n"+appended {
		t.Errorf("file = %q, want the original and the appended line", got)
	}
	if strings.Contains(stdout, "fixed 1") {
		t.Errorf("stdout claims a fix: %s", stdout)
	}
	if _, err := os.Stat(p + jsonl.RejectsSuffix); err == nil {
		t.Error("rejects were written for a file that was not")
	}
	if baks, _ := filepath.Glob(p + ".bak-*"); len(baks) != 0 {
		t.Errorf("backups left: %v", baks)
	}
}

// TestFixInPlaceLocked: a second run on a file another run is fixing
// refuses (both used to write, and the rejects got every piece twice).
func TestFixInPlaceLocked(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "a.jsonl", needsFix+"\n")
	unlock, err := fix.LockInput(p)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	stdout, stderr, code := chatlint(t, "", "fix", "--in-place", p)
	if code != 2 || !strings.Contains(stderr, "another run is fixing it") {
		t.Fatalf("exit %d, stderr %q; want 2 and the lock named", code, stderr)
	}
	if got := mustRead(t, p); got != needsFix+"\n" {
		t.Errorf("locked file was changed: %q", got)
	}
	if _, err := os.Stat(p + jsonl.RejectsSuffix); err == nil {
		t.Error("rejects were written by the refused run")
	}
	if strings.Contains(stdout, "fixed 1") {
		t.Errorf("stdout claims a fix: %s", stdout)
	}
}

// TestFixEscapesFileNames: a file name holding ESC and a newline reaches
// fix's stdout and stderr escaped.
func TestFixEscapesFileNames(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "evil\x1b[2J\nfixed 9 of 9.jsonl", needsFix+"\n{broken\n")
	stdout, stderr, _ := chatlint(t, "", "fix", "--in-place", p)
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr} {
		if strings.Contains(text, "\x1b") || strings.Contains(text, "\nfixed 9") {
			t.Errorf("%s holds the raw name: %q", what, text)
		}
	}
	if !strings.Contains(stdout, `evil\x1b[2J\nfixed 9 of 9.jsonl`) {
		t.Errorf("stdout does not name the file escaped: %q", stdout)
	}
}
