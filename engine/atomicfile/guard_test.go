package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestInputsRefuseOutputs: an output is refused when it is an input by
// any name (another spelling, a symbolic or hard link), and an output
// folder when it is, lies inside or holds an input folder; anything else
// passes.
func TestInputsRefuseOutputs(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "logs")
	os.MkdirAll(filepath.Join(logs, "day"), 0o755)
	data := filepath.Join(logs, "day", "a.jsonl")
	os.WriteFile(data, []byte("{}\n"), 0o644)
	os.Symlink(data, filepath.Join(dir, "sym"))
	os.Link(data, filepath.Join(dir, "hard"))
	os.Symlink(logs, filepath.Join(dir, "logslink"))
	in := NewInputs(logs, data)
	for _, c := range []struct {
		path string
		dir  bool
		want bool
	}{
		{data, false, true},
		{filepath.Join(logs, "day", "..", "day", "a.jsonl"), false, true},
		{filepath.Join(dir, "sym"), false, true},
		{filepath.Join(dir, "hard"), false, true},
		{filepath.Join(dir, "logslink", "day", "a.jsonl"), false, true},
		{filepath.Join(dir, "other.jsonl"), false, false},
		{logs, true, true},
		{filepath.Join(logs, "out"), true, true},                 // inside, not made yet
		{filepath.Join(dir, "logslink", "new", "x"), true, true}, // inside, through a link
		{dir, true, true},                                        // holds the logs
		{filepath.Join(dir, "out"), true, false},
	} {
		check := in.CheckFile
		if c.dir {
			check = in.CheckDir
		}
		err := check(c.path)
		var ie *InputError
		if got := errors.As(err, &ie); got != c.want {
			t.Errorf("%s (dir %v): refused %v (%v), want %v", c.path, c.dir, got, err, c.want)
		}
	}
}
