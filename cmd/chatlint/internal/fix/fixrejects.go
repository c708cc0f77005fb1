package fix

import (
	"os"
	"path/filepath"

	"github.com/chatlint/chatlint/engine/atomicfile"
	"github.com/chatlint/chatlint/engine/spill"
)

// spool holds a file's rejects until its output is committed, so a failed
// write leaves no rejects behind: in memory, then in a temporary file beside
// the rejects file (spill.Buffer), so memory stays flat however much a pack
// drops.
type spool struct{ spill.Buffer }

func newSpool(dest string) *spool {
	return &spool{spill.Buffer{Dir: filepath.Dir(dest), Pattern: atomicfile.TempPattern("chatlint-rejects")}}
}

func (s *spool) empty() bool { return s.Empty() }

// appendTo appends everything spooled to path and syncs it (and, for a new
// file, its folder); perm is the file's mode when it is new. undo takes the
// rejects back out (truncates the file to its old size, or removes it when
// it was new): for when the output they belong to is not written after all.
func (s *spool) appendTo(path string, perm os.FileMode) (undo func(), err error) {
	defer s.discard()
	if err := s.Err(); err != nil {
		return nil, err
	}
	var old int64 = -1
	if fi, err := os.Stat(path); err == nil {
		old = fi.Size()
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return nil, err
	}
	undo = func() {
		if old < 0 {
			os.Remove(path)
			return
		}
		if err := os.Truncate(path, old); err == nil {
			if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
				f.Sync()
				f.Close()
			}
		}
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			undo()
			undo = nil
		}
	}()
	if _, err = s.WriteTo(f); err != nil {
		return undo, err
	}
	if err = f.Sync(); err != nil {
		return undo, err
	}
	if old < 0 {
		atomicfile.SyncDir(filepath.Dir(path))
	}
	return undo, nil
}

// discard drops what was spooled.
func (s *spool) discard() { s.Release() }
