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

// appendTo appends everything spooled to path and syncs it; perm is the
// file's mode when it is new.
func (s *spool) appendTo(path string, perm os.FileMode) (err error) {
	defer s.discard()
	if err := s.Err(); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	if _, err = s.WriteTo(f); err != nil {
		return err
	}
	return f.Sync()
}

// discard drops what was spooled.
func (s *spool) discard() { s.Release() }
