//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives the new file the owner and group of the one it replaces,
// so that a repair run as root leaves another user's transcript theirs. It is
// best effort: an ordinary user can only keep what is already theirs.
func keepOwner(tmp *os.File, orig fs.FileInfo) {
	st, ok := orig.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	_ = tmp.Chown(int(st.Uid), int(st.Gid)) // EPERM for a non-root user repairing a group's file: the group stays the user's
}
