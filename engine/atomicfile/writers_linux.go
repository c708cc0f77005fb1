//go:build linux

package atomicfile

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// OpenWriters lists the other processes that hold path open for writing:
// every /proc/PID/fd entry that is the same file (device and inode, so any
// name or hard link counts) and whose /proc/PID/fdinfo flags have O_WRONLY
// or O_RDWR. It sees only the processes whose /proc/PID/fd this user may
// read (its own, or all as root), in this PID namespace: a writer in
// another container, on another machine (NFS), or one that opens the file
// anew for each write and had it closed at that moment is not seen.
func OpenWriters(path string) ([]Writer, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	want, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil, nil
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	self := os.Getpid()
	var out []Writer
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self {
			continue
		}
		dir := "/proc/" + p.Name()
		fds, err := os.ReadDir(dir + "/fd")
		if err != nil {
			continue // gone, or another user's
		}
		for _, fd := range fds {
			link, err := os.Readlink(dir + "/fd/" + fd.Name())
			if err != nil || !strings.HasPrefix(link, "/") {
				continue // sockets, pipes, anon inodes
			}
			var st syscall.Stat_t
			if syscall.Stat(dir+"/fd/"+fd.Name(), &st) != nil || st.Dev != want.Dev || st.Ino != want.Ino {
				continue
			}
			if writeFlags(dir + "/fdinfo/" + fd.Name()) {
				out = append(out, Writer{PID: pid, Command: command(dir)})
				break
			}
		}
	}
	return out, nil
}

// writeFlags reads an fdinfo file's octal flags line and reports whether the
// descriptor was opened for writing.
func writeFlags(fdinfo string) bool {
	b, err := os.ReadFile(fdinfo)
	if err != nil {
		return false
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("flags:")); ok {
			flags, err := strconv.ParseUint(string(bytes.TrimSpace(v)), 8, 64)
			return err == nil && flags&(syscall.O_WRONLY|syscall.O_RDWR) != 0
		}
	}
	return false
}

func command(dir string) string {
	b, _ := os.ReadFile(dir + "/comm")
	return strings.TrimSpace(string(b))
}
