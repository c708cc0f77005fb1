// Package atomicfile replaces files so that a reader, a crash or a full disk
// never sees half a file: the new content goes to a temporary file in the same
// folder, is synced, takes the mode of the file it replaces and is renamed over
// it. A backup of the replaced bytes can be kept beside it.
package atomicfile

import (
	"crypto/rand"
	"encoding/hex"
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

// Write replaces path with what write produces. When path exists its mode
// and (where the caller may set it) its owner are kept; otherwise perm is
// used. On any error the temporary file is removed and path is left as it was.
func Write(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	orig, statErr := os.Stat(path)
	if statErr == nil {
		if !orig.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		perm = orig.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	if statErr == nil {
		keepOwner(tmp, orig)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; chmod rather than rely on the umask.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if err = sync(tmp); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
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
	dst, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return "", err
	}
	keepOwner(dst, fi)
	_, err = io.Copy(dst, src)
	if err == nil {
		err = sync(dst)
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", fmt.Errorf("backup of %s: %w", path, err)
	}
	return name, nil
}

// syncDir makes a rename durable; filesystems that cannot sync a folder are
// not an error, since the file itself was synced.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync() // the file itself was synced; at worst the new name lags
	d.Close()
}
