package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBackupNameOnlyHoldsACompleteCopy stops the copy halfway, as a kill
// would: at that moment no file may carry the backup's name (it used to be
// created first and copied into, so a kill left a 0-byte or half backup
// that looked like a good one). A copy that fails leaves nothing behind.
func TestBackupNameOnlyHoldsACompleteCopy(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.jsonl")
	content := strings.Repeat(`{"messages":[]}`+"\n", 1000)
	if err := os.WriteFile(p, []byte(content), 0o640); err != nil {
		t.Fatal(err)
	}
	defer func(c func(io.Writer, io.Reader) (int64, error)) { copyBackup = c }(copyBackup)
	var seen []string
	copyBackup = func(w io.Writer, r io.Reader) (int64, error) {
		n, err := io.CopyN(w, r, int64(len(content)/2))
		if err != nil {
			return n, err
		}
		seen, _ = filepath.Glob(p + ".bak-*")
		m, err := io.Copy(w, r)
		return n + m, err
	}
	bak, err := Backup(p, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 0 {
		t.Errorf("halfway through the copy, %v already carried the backup's name", seen)
	}
	if got, _ := os.ReadFile(bak); string(got) != content {
		t.Errorf("backup holds %d bytes, want %d", len(got), len(content))
	}
	if fi, _ := os.Stat(bak); fi.Mode().Perm() != 0o640 {
		t.Errorf("backup mode %v", fi.Mode().Perm())
	}
	if tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*")); len(tmps) != 0 {
		t.Errorf("temporary files left: %v", tmps)
	}

	// A failing copy (a full disk) leaves neither a backup nor a temporary file.
	copyBackup = func(w io.Writer, r io.Reader) (int64, error) {
		io.CopyN(w, r, 10)
		return 10, errors.New("no space left on device")
	}
	if _, err := Backup(p, time.Now()); err == nil {
		t.Fatal("a failed copy returned no error")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 { // a.jsonl and the first backup
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left behind: %v", names)
	}
}
