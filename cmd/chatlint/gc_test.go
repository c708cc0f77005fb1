package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/chatlint/chatlint/cmd/chatlint/internal/cmdutil"
	"github.com/chatlint/chatlint/cmd/chatlint/internal/gcstart"
)

func TestMemoryLimitFor(t *testing.T) {
	for _, tc := range []struct {
		live uint64
		band bool // check's sessions' band
		want int64
	}{
		{0, false, memoryFloor},
		{10 << 20, false, memoryFloor},
		{memoryFloor / liveHeapFactor, false, memoryFloor},
		{50 << 20, false, 100 << 20},
		{100 << 20, false, (100 + 64) << 20},                            // the headroom is capped
		{maxHeadroomUpTo - 1, false, maxHeadroomUpTo - 1 + maxHeadroom}, // up to here
		{maxHeadroomUpTo, false, 2 * maxHeadroomUpTo},                   // then the limit doubles again
		{1 << 62, false, 2 << 60},

		{10 << 20, true, memoryFloor},
		{memoryFloor / liveHeapFactor, true, memoryFloor},
		{40 << 20, true, sessionCeiling}, // twice the live heap would pass the ceiling
		{45 << 20, true, sessionCeiling},
		{sessionCeilingUpTo, true, sessionCeiling},
		{88 << 20, true, (88 + 24 + 20) << 20},               // growing back to the cap
		{sessionBandEnd, true, sessionBandEnd + maxHeadroom}, // the cap again, as without the band
		{200 << 20, true, (200 + 64) << 20},
		{maxHeadroomUpTo, true, 2 * maxHeadroomUpTo},
	} {
		if got := memoryLimitFor(tc.live, tc.band); got != tc.want {
			t.Errorf("memoryLimitFor(%d, %v) = %d, want %d", tc.live, tc.band, got, tc.want)
		}
	}
}

// TestSessionBandCheckOnly: check under the default profile takes the
// sessions' band; fix, stats and the fine-tuning profiles do not (it cost
// them CPU).
func TestSessionBandCheckOnly(t *testing.T) {
	defer gcstart.SessionBand.Store(false)
	in := filepath.Join(t.TempDir(), "chat.jsonl")
	if err := os.WriteFile(in, []byte(`{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args      []string
		pre, band bool // the band before and after the command
	}{
		{[]string{"check", in}, false, true},
		{[]string{"check", "--profile", "openai", in}, true, false},
		{[]string{"stats", in}, false, false},
		{[]string{"fix", "--dry-run", in}, false, false},
	} {
		gcstart.SessionBand.Store(c.pre)
		var out, errOut bytes.Buffer
		run(context.Background(), c.args, cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		if got := gcstart.SessionBand.Load(); got != c.band {
			t.Errorf("%v: sessions' band %v, want %v (stderr: %s)", c.args, got, c.band, errOut.String())
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
	want := memoryLimitFor(uint64(len(live)), false)
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
