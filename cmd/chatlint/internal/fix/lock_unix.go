//go:build unix

package fix

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// LockInput takes an advisory lock (flock) on a file fix --in-place is
// about to replace, so a second run on the same file refuses instead of
// fixing it too (its rejects file then got every dropped piece twice).
// Processes that do not lock, an editor or `echo >>`, are caught by the
// check of the file's identity before the rename (fixguard.go).
func LockInput(path string) (unlock func(), err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("another run is fixing it (locked); it was left as it is")
		}
		return nil, fmt.Errorf("lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
