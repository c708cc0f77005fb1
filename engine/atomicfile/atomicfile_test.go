package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWriteKeepsModeAndReplaces(t *testing.T) {
	for _, mode := range []fs.FileMode{0o600, 0o640, 0o755} {
		dir := t.TempDir()
		p := filepath.Join(dir, "f.jsonl")
		if err := os.WriteFile(p, []byte("old\n"), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode) // the umask may have narrowed it
		if err := WriteFile(p, []byte("new\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if string(got) != "new\n" {
			t.Errorf("content %q", got)
		}
		fi, _ := os.Stat(p)
		if fi.Mode().Perm() != mode {
			t.Errorf("mode %v, want %v", fi.Mode().Perm(), mode)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 {
			t.Errorf("left %d files, want 1", len(ents))
		}
	}
}

func TestWriteNewFileUsesPerm(t *testing.T) {
	p := filepath.Join(t.TempDir(), "new.jsonl")
	if err := WriteFile(p, []byte("x"), 0o640); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestFailuresLeaveOriginal(t *testing.T) {
	failRename := func(string, string) error { return errors.New("disk full") }
	failSync := func(*os.File) error { return errors.New("io error") }
	cases := map[string]func(){
		"rename": func() { rename = failRename },
		"sync":   func() { sync = failSync },
		"write":  func() {},
	}
	for name, inject := range cases {
		t.Run(name, func(t *testing.T) {
			defer func(r func(string, string) error, s func(*os.File) error) { rename, sync = r, s }(rename, sync)
			inject()
			dir := t.TempDir()
			p := filepath.Join(dir, "f.jsonl")
			os.WriteFile(p, []byte("orig\n"), 0o600)
			err := Write(p, 0o644, func(w io.Writer) error {
				if name == "write" {
					return errors.New("writer failed")
				}
				_, err := io.WriteString(w, "new\n")
				return err
			})
			if err == nil {
				t.Fatal("want an error")
			}
			got, _ := os.ReadFile(p)
			if string(got) != "orig\n" {
				t.Errorf("original changed: %q", got)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 1 {
				t.Errorf("temp file left behind: %d entries", len(ents))
			}
		})
	}
}

func TestBackupIsExactAndUnique(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.jsonl")
	data := []byte("a\r\n\xff\xfe{\n")
	os.WriteFile(p, data, 0o640)
	os.Chmod(p, 0o640)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	b1, err := Backup(p, now)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Backup(p, now)
	if err != nil {
		t.Fatal(err)
	}
	if b1 == b2 {
		t.Errorf("two backups share a name: %s", b1)
	}
	for _, b := range []string{b1, b2} {
		got, _ := os.ReadFile(b)
		if string(got) != string(data) {
			t.Errorf("%s: %q", b, got)
		}
		fi, _ := os.Stat(b)
		if fi.Mode().Perm() != 0o640 {
			t.Errorf("%s: mode %v", b, fi.Mode().Perm())
		}
		if filepath.Dir(b) != dir {
			t.Errorf("backup outside the folder: %s", b)
		}
	}
}

func TestCreateStreamsUntilCommit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "report.sarif")
	os.WriteFile(p, []byte("old"), 0o640)
	os.Chmod(p, 0o640)
	f, err := Create(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new ")
	io.WriteString(f, "report")
	if got, _ := os.ReadFile(p); string(got) != "old" {
		t.Errorf("the destination changed before Commit: %q", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "new report" {
		t.Errorf("after Commit: %q", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	f.Abort() // after Commit: nothing to do
	if err := f.Commit(); err == nil {
		t.Error("a second Commit succeeded")
	}
	if got, _ := os.ReadFile(p); string(got) != "new report" {
		t.Errorf("Abort after Commit changed the file: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files left, want 1", len(ents))
	}
}

func TestAbortLeavesDestination(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.jsonl")
	os.WriteFile(p, []byte("orig\n"), 0o600)
	f, err := Create(p, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "half")
	f.Abort()
	if got, _ := os.ReadFile(p); string(got) != "orig\n" {
		t.Errorf("original changed: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("temp file left: %d entries", len(ents))
	}
	if _, err := Create(filepath.Join(dir, "no/such/dir/x"), 0o644); err == nil {
		t.Error("Create in a missing folder succeeded")
	}
}
