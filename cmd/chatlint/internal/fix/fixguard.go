package fix

import (
	"errors"
	"io/fs"
	"os"

	"github.com/chatlint/chatlint/engine/jsonl"
)

// fix --in-place must not lose a byte that arrives while it runs, nor let
// two runs fix one file at once. Before the run each input's identity (the
// file, its size and modification time) is taken; the file is locked while
// its output is written (an advisory lock other chatlint runs honour, see
// lock_unix.go); and right before the new file replaces it, the identity is
// taken again: a line appended meanwhile, or another run's replacement,
// makes it differ and the file is not written.

// errChanged is why a file that changed under fix is not replaced.
var errChanged = errors.New("file changed while fixing; it was left as it is (run fix again)")

// statInputs records the identity of each input file.
func statInputs(files []string) map[string]fs.FileInfo {
	out := make(map[string]fs.FileInfo, len(files))
	for _, f := range files {
		if f == jsonl.Stdin {
			continue
		}
		if fi, err := os.Stat(f); err == nil {
			out[f] = fi
		}
	}
	return out
}

// unchangedSince returns errChanged when path is no longer the file before
// was.
func unchangedSince(path string, before fs.FileInfo) error {
	now, err := os.Stat(path)
	if err != nil {
		return err
	}
	if before == nil || !os.SameFile(before, now) || now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime()) {
		return errChanged
	}
	return nil
}

// inputPerm is the mode an output or rejects file of the input gets when it
// is created: never more permissive than the input (a 0600 transcript's
// rejects are 0600 too).
func inputPerm(path string) fs.FileMode {
	if fi, err := os.Stat(path); err == nil {
		return fi.Mode().Perm() & 0o666
	}
	return 0o644
}
