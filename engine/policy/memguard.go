package policy

import (
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// A rule that builds a huge array or string reaches gigabytes long before
// the time limit. OPA's evaluation stops at its next step when cancelled, and
// its builtins that build big values (numbers.range, concat, replace, …)
// check for cancellation as they go; so a watchdog samples the heap while
// evaluations run and cancels one when the heap has grown past the limit
// since it started (the document it evaluates, held before, is not counted:
// a big valid session is not a rule's allocation). The heap is the
// process's, not one evaluation's: every evaluation whose growth passes the
// limit at that moment is cancelled and then evaluated again alone, after a
// collection, so an innocent document beside a hostile one is still checked,
// and only a document whose rules pass the limit on their own is reported,
// naming the rule.

// DefaultRuleMemory is how much the rules may grow the heap by while they
// evaluate one document.
const DefaultRuleMemory = 512 << 20

// memSampleEvery is the watchdog's period: fast enough that a rule
// allocating at memory bandwidth overshoots the limit by little.
const memSampleEvery = 2 * time.Millisecond

// memWatch is one evaluation under the watchdog.
type memWatch struct {
	cancel *resettableCancel
	over   atomic.Bool // the watchdog cancelled it
	// base is the heap at the watchdog's first sample of this evaluation,
	// once sampled: what it holds then (the document itself, however big a
	// valid session is, what the YAML rules built before, the other
	// workers' records) is not the Rego rules' doing, so the limit bounds
	// the growth past it. Taken by the watchdog, not when the evaluation
	// starts: reading the heap costs about as much as a compiled rule
	// evaluating a small record, and most evaluations end before the first
	// sample. What a rule allocates before that sample goes uncounted, a
	// period's worth, as much as the limit overshoots by at the other end.
	base    uint64
	sampled bool
}

type memGuard struct {
	mu      sync.Mutex
	limit   uint64
	active  map[*memWatch]struct{}
	running bool
	alone   sync.Mutex // evaluations retried after the limit, one at a time
}

var guard = &memGuard{active: map[*memWatch]struct{}{}}

// watch puts an evaluation under the watchdog until unwatch; limit is the
// heap bound (the smallest asked for wins while several engines run, as
// tests do).
func (g *memGuard) watch(w *memWatch, limit uint64) {
	g.mu.Lock()
	w.base, w.sampled = 0, false
	g.active[w] = struct{}{}
	if g.limit == 0 || limit < g.limit {
		g.limit = limit
	}
	if !g.running {
		g.running = true
		go g.run()
	}
	g.mu.Unlock()
}

// unwatch takes an evaluation from the watchdog: once it returns, the
// watchdog no longer touches w, so w may be watched again.
func (g *memGuard) unwatch(w *memWatch) {
	g.mu.Lock()
	delete(g.active, w)
	g.mu.Unlock()
}

// run samples the heap while evaluations are active, and stops when none
// is.
func (g *memGuard) run() {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(memSampleEvery)
	defer tick.Stop()
	idle := 0
	for range tick.C {
		g.mu.Lock()
		if len(g.active) == 0 {
			idle++
			if idle > 100 { // no evaluation for a while: the goroutine ends
				g.running, g.limit = false, 0
				g.mu.Unlock()
				return
			}
			g.mu.Unlock()
			continue
		}
		idle = 0
		// Garbage counts until it is collected, so an evaluation may be
		// stopped for another's garbage: it is then evaluated again after
		// a collection (Evaluator.evaluate), which costs time, not a
		// wrong answer. A run within its memory never gets here.
		heap := g.heap(sample)
		for w := range g.active {
			if !w.sampled {
				w.base, w.sampled = heap, true
				continue
			}
			if heap > w.base && heap-w.base > g.limit {
				w.over.Store(true)
				w.cancel.Cancel()
			}
		}
		g.mu.Unlock()
	}
}

func (g *memGuard) heap(sample []metrics.Sample) uint64 {
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}
