package main

import (
	"os"
	"runtime/debug"
)

// tuneGC trades memory for speed, as `chatlint check` does: the live heap
// of a check is small but it allocates fast, so the default GOGC=100
// collects constantly (a quarter of the CPU on the bench data). Workers run
// this binary too and hold bundles in memory, so the soft limit is higher
// than check's. GOGC and GOMEMLIMIT in the environment still win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
