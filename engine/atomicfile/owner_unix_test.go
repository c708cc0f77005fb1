//go:build unix

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestWriteAndBackupKeepOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	p := filepath.Join(t.TempDir(), "f.jsonl")
	os.WriteFile(p, []byte("x\n"), 0o640)
	if err := os.Chown(p, 12345, 23456); err != nil {
		t.Fatal(err)
	}
	b, err := Backup(p, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("y\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p, b} {
		fi, _ := os.Stat(f)
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 12345 || st.Gid != 23456 {
			t.Errorf("%s: owner %d:%d, want 12345:23456", f, st.Uid, st.Gid)
		}
	}
}
