package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestMemoryLimitFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		want int64
	}{
		{0, memoryFloor},
		{10 << 20, memoryFloor},
		{memoryFloor / liveHeapFactor, memoryFloor},
		{40 << 20, sessionCeiling}, // twice the live heap would pass the ceiling
		{50 << 20, sessionCeiling},
		{sessionCeilingUpTo, sessionCeiling},
		{90 << 20, (90 + 24 + 20) << 20},                         // growing back to the cap
		{sessionBandEnd, sessionBandEnd + maxHeadroom},           // the cap again
		{200 << 20, (200 + 64) << 20},                            // the headroom is capped
		{maxHeadroomUpTo - 1, maxHeadroomUpTo - 1 + maxHeadroom}, // up to here
		{maxHeadroomUpTo, 2 * maxHeadroomUpTo},                   // then the limit doubles again
		{1 << 62, 2 << 60},
	} {
		if got := memoryLimitFor(tc.live); got != tc.want {
			t.Errorf("memoryLimitFor(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// TestWatchLiveHeap checks that the limit follows a live heap above the floor.
func TestWatchLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	debug.SetMemoryLimit(memoryFloor)
	stop := watchLiveHeap()
	defer stop()
	live := make([]byte, 80<<20) // the limit should become this plus the headroom
	for i := range live {
		live[i] = 1
	}
	want := memoryLimitFor(uint64(len(live)))
	// Each cycle runs the cleanup of the previous one's sentinel; the
	// cleanup goroutine runs when it can, so give it a few cycles.
	for i := 0; i < 100 && debug.SetMemoryLimit(-1) < want; i++ {
		runtime.GC()
		runtime.Gosched()
	}
	if got := debug.SetMemoryLimit(-1); got < want {
		t.Errorf("memory limit = %d MiB with a live heap of %d MiB, want at least %d MiB", got>>20, len(live)>>20, want>>20)
	}
	runtime.KeepAlive(live)
}
