package lint

import (
	"runtime"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
)

// liveHeap is the heap that survives two collections.
func liveHeap() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestCodexRolloutLiveHeap: what a built Codex rollout keeps live while its
// rules run, as check builds it (projected lines as views, each line's text
// dropped once decoded), is at most 1,150 bytes per line (990–1,045 measured): the unit's
// records and the document. Each worker holds one, so it is what a check of
// long rollouts peaks at. Each line decoded on its own carved its few terms
// from a block of sixteen (astjson.Slabs): 1,290 bytes per line.
func TestCodexRolloutLiveHeap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a rollout of 10,000 lines")
	}
	l := defaultLinter(t)
	opts := l.plan(document.Codex).opts
	Documents(sessionUnit(document.Codex, 100), opts, func(*document.Document, *jsonl.Record) {}) // compiles what a document needs
	before := liveHeap()
	u := sessionUnit(document.Codex, 10000)
	u.Release = true
	var held []*document.Document
	Documents(u, opts, func(d *document.Document, _ *jsonl.Record) { held = append(held, d) })
	if len(held) != 1 {
		t.Fatalf("%d documents, want the rollout's one", len(held))
	}
	live := int64(liveHeap()) - int64(before)
	per := float64(live) / float64(len(u.Records))
	t.Logf("%d lines: %.2f MB live, %.0f bytes per line", len(u.Records), float64(live)/1e6, per)
	if per > 1150 {
		t.Errorf("a built rollout keeps %.0f bytes per line live, want at most 1,150", per)
	}
	runtime.KeepAlive(held)
	runtime.KeepAlive(u)
}
