package gcstart

import (
	"os"
	"runtime/debug"
	"testing"
)

// TestPercentSetAtInit: the GC target is chatlint's as soon as the package
// is initialized, before main runs (a test binary never runs main's tuneGC).
func TestPercentSetAtInit(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set: the environment wins")
	}
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	if prev != Percent {
		t.Fatalf("GC percent at start: got %d, want %d", prev, Percent)
	}
}
