package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	syncpkg "sync"
	"time"
)

// A run killed with SIGKILL leaves its temporary file behind (as big as the
// file it was replacing). The original is intact, but the leftovers pile up,
// so the first Create in a folder removes the temporary files of ours that
// are older than this process and whose process is gone.

// TempPattern is the os.CreateTemp pattern of chatlint's temporary files
// beside name: .NAME.tmp-<pid>-<random>.
func TempPattern(name string) string {
	return fmt.Sprintf(".%s.tmp-%d-*", name, os.Getpid())
}

var (
	// staleName is compiled on the first Create, not at start: most runs
	// write nothing.
	staleName  = syncpkg.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\..*\.tmp-([0-9]+)-[0-9]+$`) })
	started    = time.Now()
	cleanedMu  syncpkg.Mutex
	cleanedDir = map[string]bool{}
)

// removeStale removes, once per folder and process, the leftovers of runs
// that are gone. Errors are ignored: this is housekeeping.
func removeStale(dir string) {
	cleanedMu.Lock()
	done := cleanedDir[dir]
	cleanedDir[dir] = true
	cleanedMu.Unlock()
	if done {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := staleName().FindStringSubmatch(e.Name())
		if m == nil || !e.Type().IsRegular() {
			continue
		}
		pid, err := strconv.Atoi(m[1])
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(started) {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}
