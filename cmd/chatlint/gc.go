package main

import (
	"os"
	"runtime/debug"
)

// tuneGC trades memory for speed. chatlint's live heap is small (a few
// records in flight per worker) but it allocates fast, so with the default
// GOGC=100 the collector runs constantly and took most of the CPU. A higher
// target with a memory limit keeps peak RSS bounded (the limit makes the
// collector work harder as the heap nears it) while cutting GC work several
// times. GOGC and GOMEMLIMIT in the environment still win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(200 << 20)
	}
}
