// Package gcstart sets the binary's GC target before the other packages'
// init runs. Set in main (tuneGC), it came after their init had allocated
// past Go's default first goal of 4 MB and paid a collection on every run.
// It imports nothing but
// the runtime's packages, so it is initialized before every package that
// allocates much (Go initializes the packages ready first, by import path).
package gcstart

import (
	"os"
	"runtime/debug"
)

// Percent is the GC target (GOGC) chatlint runs with unless GOGC is set:
// cmd/chatlint/gc.go says why.
const Percent = 800

func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(Percent)
	}
}
