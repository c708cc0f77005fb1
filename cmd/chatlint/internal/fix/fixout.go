package fix

import (
	"bufio"
	"os"
	"time"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

// The file operations, swapped in tests to simulate a failing disk.
var (
	CommitFile = (*atomicfile.File).Commit
	BackupFile = atomicfile.Backup
)

// outFile streams one output file through atomicfile: records are written as
// they come (memory stays flat), and the file appears only when it is
// committed: temp file, fsync, mode kept, rename.
type outFile struct {
	path string
	f    *atomicfile.File // nil when it could not be created (err says why)
	bw   *bufio.Writer
	err  error
	// check, when set, runs after the backup and right before the rename:
	// an error leaves the destination as it is (fixguard.go).
	check func() error
}

// openOut starts writing path; perm is its mode when it is new.
func openOut(path string, perm os.FileMode) *outFile {
	o := &outFile{path: path}
	if o.f, o.err = atomicfile.Create(path, perm); o.err == nil {
		o.bw = bufio.NewWriterSize(o.f, 64<<10)
	}
	return o
}

func (o *outFile) write(parts ...[]byte) {
	for _, p := range parts {
		if o.err != nil {
			return
		}
		_, o.err = o.bw.Write(p)
	}
}

func (o *outFile) writeString(s string) {
	if o.err == nil {
		_, o.err = o.bw.WriteString(s)
	}
}

// commit finishes the file; backup, when set, first copies the file being
// replaced and returns the backup's name.
func (o *outFile) commit(backup bool) (string, error) {
	if o.err == nil {
		o.err = o.bw.Flush()
	}
	if o.err != nil {
		o.abort()
		return "", o.err
	}
	var bak string
	if backup {
		var err error
		if bak, err = BackupFile(o.path, time.Now()); err != nil {
			o.abort()
			return "", err
		}
	}
	if o.check != nil {
		if err := o.check(); err != nil {
			if bak != "" {
				os.Remove(bak)
			}
			o.abort()
			return "", err
		}
	}
	if err := CommitFile(o.f); err != nil {
		if bak != "" {
			os.Remove(bak) // the original is intact: the backup is not needed
		}
		return "", err
	}
	return bak, nil
}

// abort drops the temporary file; the destination is left as it was.
func (o *outFile) abort() {
	if o.f != nil {
		o.f.Abort()
	}
}
