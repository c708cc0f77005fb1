package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/gcstart" // sets GOGC in its init
)

// GC tuning, chosen from measurements (docs/performance.md, "Memory").
//
// chatlint's live heap is small (the compiled rules and a few records in
// flight per worker, 5–11 MB) but it allocates about 13 bytes per input byte,
// so with the default GOGC=100 the collector runs constantly. GOGC=800
// (gcstart.Percent) cuts its work about 4 times, but the heap then peaks at
// 9× a live heap that swings with the records in flight: 80–135 MB. A soft
// memory limit of 64 MiB caps those swings at no cost in collections (the
// limit is reached only when the live heap is large), and peak RSS stays
// near 70 MB.
//
// A fixed limit would make the collector run back to back on a document
// whose live heap nears it (a huge session or record), so the limit follows
// the live heap: after every collection it is set to 2× the live heap when
// that is more than the floor, which collects about as often as the default
// GOGC=100 (on 8.8 MB records: 2.3× less CPU than a fixed 200 MiB limit, for
// 393 MB peak RSS instead of 236 MB), with less headroom where sessions
// make the live heap (the constants below).
//
// GOGC and GOMEMLIMIT in the environment still win.
const (
	memoryFloor    = 64 << 20
	liveHeapFactor = 2
	// maxHeadroom caps what the limit adds to a big live heap: on 60 MB
	// records (a live heap of 130–230 MB) 2× the live heap let the process
	// reach 440 MB; a fixed headroom keeps it under 300 MB (docs/limits.md).
	// Past maxHeadroomUpTo the limit doubles the live heap again: a fixed
	// headroom on a heap of gigabytes (a hostile rule's) would collect
	// every few percent of growth, and the run would crawl.
	maxHeadroom     = 64 << 20
	maxHeadroomUpTo = 384 << 20
	// Past the floor's half and below sessionBandEnd, the live heap is
	// mostly that of sessions (each worker holds a Codex rollout or a
	// Claude Code session whole while its rules run), not of records in
	// flight. Twice that live heap is where the peak RSS went over its
	// bound (docs/limits.md), so the limit stays at sessionCeiling as
	// long as that leaves minHeadroom; past sessionCeilingUpTo the
	// headroom grows back, in proportion, to maxHeadroom at
	// sessionBandEnd, so that a bigger live heap (dense records) does not
	// collect more often than before. The few more collections cost less
	// CPU than the sessions' shared term blocks saved. check under the
	// default profile only (gcstart.SessionBand): fix and stats decode
	// whole lines, and they and the fine-tuning profiles (which count
	// every example's tokens) hold a live heap in the band for most of a
	// run, where the collections cost them more CPU than check saved.
	sessionCeiling     = 72 << 20
	minHeadroom        = 24 << 20
	sessionCeilingUpTo = sessionCeiling - minHeadroom
	sessionBandEnd     = 128 << 20
)

// tuneGC starts the memory limit that follows the live heap. The GC target
// (GOGC 800) is set earlier, by gcstart's init, before the other packages
// allocate.
func tuneGC() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(memoryFloor)
		watchLiveHeap()
	}
}

// memoryLimitFor returns the soft memory limit for a live heap of live
// bytes; band applies the sessions' band.
func memoryLimitFor(live uint64, band bool) int64 {
	live = min(live, 1<<60)
	headroom := live * (liveHeapFactor - 1)
	if live < maxHeadroomUpTo {
		headroom = min(headroom, maxHeadroom)
	}
	switch {
	case !band:
	case live <= sessionCeilingUpTo:
		headroom = min(headroom, max(minHeadroom, sessionCeiling-live))
	case live < sessionBandEnd:
		// From minHeadroom at sessionCeilingUpTo to maxHeadroom at
		// sessionBandEnd.
		grow := (live - sessionCeilingUpTo) * (maxHeadroom - minHeadroom) / (sessionBandEnd - sessionCeilingUpTo)
		headroom = min(headroom, minHeadroom+grow)
	}
	return max(memoryFloor, int64(live+headroom))
}

// watchLiveHeap sets the memory limit after every collection: a cleanup on
// an unreachable object runs once its collection is done, and arms the next.
// It returns a function that stops it.
func watchLiveHeap() (stop func()) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var stopped atomic.Bool
	var arm func()
	arm = func() {
		runtime.AddCleanup(new(gcSentinel), func(struct{}) {
			if stopped.Load() {
				return
			}
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				debug.SetMemoryLimit(memoryLimitFor(sample[0].Value.Uint64(), gcstart.SessionBand.Load()))
			}
			arm()
		}, struct{}{})
	}
	arm()
	return func() { stopped.Store(true) }
}

// gcSentinel is large enough not to share a tiny-allocator block, whose
// other objects could keep it alive.
type gcSentinel struct{ _ [32]byte }
