// Package atomicfile replaces files so that a reader, a crash or a full disk
// never sees half a file: the new content goes to a temporary file in the same
// folder, is synced, takes the mode of the file it replaces and is renamed over
// it. A backup of the replaced bytes can be kept beside it.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// hooks let tests simulate a failing rename or sync without a faulty disk.
var (
	rename = os.Rename
	sync   = func(f *os.File) error { return f.Sync() }
)

// File is a file being written in place of another: it is a temporary file
// in the destination's folder until Commit renames it over the destination,
// so a reader, a crash or a full disk never sees half of it. A writer that
// streams (a report, a fixed dataset) writes to it as data comes.
type File struct {
	tmp  *os.File
	path string
	perm fs.FileMode
	done bool
}

// Create starts replacing path. When path exists its mode and (where the
// caller may set it) its owner are kept; otherwise perm is used.
//
// A symbolic link is followed: its target is replaced and the link stays,
// as editors and `repair` do. The temporary file is named
// .NAME.tmp-<pid>-<random>, so that the next run in the folder can tell a
// leftover of a killed run from the file of one still going (stale.go).
func Create(path string, perm fs.FileMode) (*File, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		if target, err := filepath.EvalSymlinks(path); err == nil {
			path = target
		}
	}
	removeStale(filepath.Dir(path))
	orig, statErr := os.Stat(path)
	if statErr == nil {
		if !orig.Mode().IsRegular() {
			return nil, fmt.Errorf("%s: not a regular file", path)
		}
		perm = orig.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), TempPattern(filepath.Base(path)))
	if err != nil {
		return nil, err
	}
	if statErr == nil {
		keepOwner(tmp, orig)
	}
	return &File{tmp: tmp, path: path, perm: perm}, nil
}

// Write writes to the temporary file.
func (f *File) Write(p []byte) (int, error) { return f.tmp.Write(p) }

// Commit syncs the file, gives it its mode and renames it over the
// destination. On any error the temporary file is removed and the
// destination is left as it was.
func (f *File) Commit() (err error) {
	if f.done {
		return errors.New("atomicfile: " + f.path + " was already committed or aborted")
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
		f.done = true
	}()
	// CreateTemp makes the file 0600; chmod rather than rely on the umask.
	if err = f.tmp.Chmod(f.perm); err != nil {
		return err
	}
	if err = sync(f.tmp); err != nil {
		return fmt.Errorf("sync %s: %w", f.tmp.Name(), err)
	}
	if err = f.tmp.Close(); err != nil {
		return err
	}
	if err = rename(f.tmp.Name(), f.path); err != nil {
		return err
	}
	SyncDir(filepath.Dir(f.path))
	return nil
}

// Abort removes the temporary file; the destination is left as it was. It
// does nothing after Commit or another Abort.
func (f *File) Abort() {
	if f.done {
		return
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
}

// Write replaces path with what write produces, as Create and Commit do; when
// write fails, path is left as it was.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	f, err := Create(path, perm)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// WriteFile replaces path with data, as Write does.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Backup copies path byte for byte to a new file PATH.bak-<UTC time>-<random>
// in the same folder, with the same mode, and returns its name. It never
// overwrites an existing file.
//
// The backup name only ever holds a complete copy: the bytes go to a
// temporary file (named as Create names its own, so a later run removes
// the leftover of a killed one), are synced, and only then is the file
// linked to its name. A run killed while copying used to leave a 0-byte or
// half-written file that looked exactly like a good backup.
func Backup(path string, now time.Time) (string, error) {
	src, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	fi, err := src.Stat()
	if err != nil {
		return "", err
	}
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return "", err
	}
	name := fmt.Sprintf("%s.bak-%s-%s", path, now.UTC().Format("20060102T150405Z"), hex.EncodeToString(rnd[:]))
	dir := filepath.Dir(name)
	removeStale(dir)
	tmp, err := os.CreateTemp(dir, TempPattern(filepath.Base(name)))
	if err != nil {
		return "", err
	}
	keepOwner(tmp, fi)
	err = tmp.Chmod(fi.Mode().Perm())
	if err == nil {
		_, err = copyBackup(tmp, src)
	}
	if err == nil {
		err = sync(tmp)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = linkNew(tmp.Name(), name)
	}
	os.Remove(tmp.Name())
	if err != nil {
		return "", fmt.Errorf("backup of %s: %w", path, err)
	}
	SyncDir(dir)
	return name, nil
}

// copyBackup copies a backup's bytes; a test stops it halfway to look at
// the folder as a kill would leave it.
var copyBackup = io.Copy

// linkNew gives the complete file tmp the name name, never replacing a
// file already there: a hard link fails when name exists, where a rename
// would replace it. Filesystems without hard links get a rename after a
// check (the name is random, so the window does not matter).
func linkNew(tmp, name string) error {
	err := os.Link(tmp, name)
	if err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, serr := os.Lstat(name); serr == nil {
		return fs.ErrExist
	}
	return rename(tmp, name)
}

// SyncDir makes a rename or a new file's name durable; filesystems that cannot sync a folder are
// not an error, since the file itself was synced.
func SyncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync() // the file itself was synced; at worst the new name lags
	d.Close()
}
