package fix

import (
	"bytes"
	"io"
	"os"
	"path/filepath"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

// spoolMemory is how much of a file's rejects is held in memory before the
// rest goes to a temporary file.
const spoolMemory = 4 << 20

// spool holds a file's rejects until its output is committed, so a failed
// write leaves no rejects behind: in memory up to spoolMemory, then in a
// temporary file beside the rejects file, so memory stays flat however much
// a pack drops.
type spool struct {
	dir string // where the temporary file goes
	buf bytes.Buffer
	tmp *os.File
	err error
}

func (s *spool) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.buf.Write(p)
	if s.buf.Len() > spoolMemory {
		if s.tmp == nil {
			if s.tmp, s.err = os.CreateTemp(s.dir, atomicfile.TempPattern("chatlint-rejects")); s.err != nil {
				return 0, s.err
			}
		}
		if _, s.err = s.buf.WriteTo(s.tmp); s.err != nil {
			return 0, s.err
		}
	}
	return len(p), nil
}

func (s *spool) empty() bool { return s.buf.Len() == 0 && s.tmp == nil }

// appendTo appends everything spooled to path and syncs it (and, for a new
// file, its folder); perm is the file's mode when it is new. undo takes the
// rejects back out (truncates the file to its old size, or removes it when
// it was new): for when the output they belong to is not written after all.
func (s *spool) appendTo(path string, perm os.FileMode) (undo func(), err error) {
	defer s.discard()
	if s.err != nil {
		return nil, s.err
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
	if s.tmp != nil {
		if _, err = s.tmp.Seek(0, io.SeekStart); err != nil {
			return undo, err
		}
		if _, err = io.Copy(f, s.tmp); err != nil {
			return undo, err
		}
	}
	if _, err = s.buf.WriteTo(f); err != nil {
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
func (s *spool) discard() {
	if s.tmp != nil {
		s.tmp.Close()
		os.Remove(s.tmp.Name())
		s.tmp = nil
	}
	s.buf.Reset()
}

func newSpool(dest string) *spool { return &spool{dir: filepath.Dir(dest)} }
