//go:build unix

package config

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// checkOwner refuses a config that is not the user's or that group or
// others may write.
func checkOwner(path string, fi fs.FileInfo) error {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		if uid := os.Getuid(); int(st.Uid) != uid {
			return &UnsafeError{Path: path, Reason: fmt.Sprintf("owned by uid %d, not by you (uid %d)", st.Uid, uid)}
		}
	}
	if m := fi.Mode().Perm(); m&0o022 != 0 {
		return &UnsafeError{Path: path, Reason: fmt.Sprintf("writable by group or others (mode %04o)", m)}
	}
	return nil
}
