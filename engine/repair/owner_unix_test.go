//go:build unix

package repair

import (
	"os"
	"syscall"
	"testing"
)

func TestRepairKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	p := writeAged(t, t.TempDir(), "s.jsonl", header+"\n{\n", 0o640)
	if err := os.Chown(p, 12345, 23456); err != nil {
		t.Fatal(err)
	}
	if r := File(p, Options{}); r.Outcome != Repaired {
		t.Fatalf("%+v", r)
	}
	fi, _ := os.Stat(p)
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 12345 || st.Gid != 23456 {
		t.Errorf("owner %d:%d, want 12345:23456", st.Uid, st.Gid)
	}
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}
