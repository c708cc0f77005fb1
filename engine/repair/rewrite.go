package repair

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"

	"github.com/chatlint/chatlint/engine/atomicfile"
)

var errChanged = errors.New("the file changed while it was being repaired")

// rewrite backs real up, then replaces it with the kept records of f, which
// the scan that gave st has read to the end. On failure the backup is
// removed: the original is still in place.
func rewrite(real string, f source, fi fs.FileInfo, st Stats, opts Options) (backup string, err error) {
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	backup, err = backupFile(real, now())
	if err != nil {
		return "", err
	}
	err = writeFile(real, fi.Mode().Perm(), func(w io.Writer) error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		got, err := WriteKept(w, f)
		if err != nil {
			return err
		}
		// Another writer may have appended while we worked: renaming now
		// would lose its lines.
		now, err := os.Stat(real)
		if err != nil {
			return err
		}
		if got != st || now.Size() != fi.Size() || !now.ModTime().Equal(fi.ModTime()) {
			return errChanged
		}
		if opts.IgnoreWriters {
			return nil
		}
		return atomicfile.RefuseWriters(real)
	})
	if err != nil {
		os.Remove(backup)
		return "", err
	}
	return backup, nil
}

// WriteKept writes the records of r that a repair keeps to w, each byte for
// byte and followed by LF, behind the byte-order mark when r starts with one.
func WriteKept(w io.Writer, r io.Reader) (Stats, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	sc := NewScanner(r)
	first := true
	st, err := scan(sc, func(rec Record) error {
		if rec.Kept {
			if first && sc.BOM() {
				bw.Write(bom)
			}
			first = false
			bw.Write(rec.Data)
			return bw.WriteByte('\n')
		}
		return nil
	})
	if err != nil {
		return st, err
	}
	return st, bw.Flush()
}
