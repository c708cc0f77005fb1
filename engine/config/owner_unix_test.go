//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindRefusesUnsafeConfig: a config that group or others may write is
// refused, as is one another user owns (root can test that one).
func TestFindRefusesUnsafeConfig(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	p := filepath.Join(dir, ".chatlint.yaml")
	os.WriteFile(p, []byte("fail_on: never\n"), 0o644)
	for _, mode := range []os.FileMode{0o664, 0o646, 0o666} {
		os.Chmod(p, mode)
		_, err := Find(dir)
		var u *UnsafeError
		if !errors.As(err, &u) || !strings.Contains(err.Error(), "writable by group or others") {
			t.Errorf("mode %o: Find error %v, want it refused", mode, err)
		}
	}
	os.Chmod(p, 0o644)
	if got, err := Find(dir); err != nil || got != p {
		t.Errorf("a 0644 config of the user's: Find = %q, %v", got, err)
	}
	if os.Getuid() != 0 {
		return
	}
	if err := os.Chown(p, 12345, 12345); err != nil {
		t.Skip(err)
	}
	_, err := Find(dir)
	if err == nil || !strings.Contains(err.Error(), "owned by uid 12345, not by you (uid 0)") {
		t.Errorf("a config another user owns: Find error %v", err)
	}
}
