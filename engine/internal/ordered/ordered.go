// Package ordered runs work on a pool of goroutines and hands the results
// back in the order the work was given, with a bounded number of jobs in
// flight so memory stays flat however far the producer runs ahead.
package ordered

import (
	"context"
	"sync"
)

// Weighted calls produce, which sends jobs one by one, hands each job to
// one of workers goroutines and passes the results to emit, on the caller's
// goroutine, in the order the jobs were sent. At most limit units of weight
// (bytes, say, as weigh gives them) are sent and not yet emitted, so memory
// stays bounded; send blocks until the weight is free. A job heavier than the
// whole limit takes all of it, so it runs alone rather than never, and send
// returns only once it was emitted, so that the producer does not read the
// next job beside it. Each worker calls newWork once, on its own goroutine,
// for the function it applies to its jobs, so per-worker state (an
// evaluator) lives in that closure.
//
// emit returning false stops the run: send returns false from then on (as it
// does when ctx is done), the results still in flight are dropped, and
// Weighted returns once the running jobs finish. The work functions get a
// context cancelled at that point. Weighted returns what produce returned.
func Weighted[J, R any](ctx context.Context, workers int, limit int64, weigh func(J) int64,
	produce func(ctx context.Context, send func(J) bool) error,
	newWork func() func(context.Context, J) R,
	emit func(R) bool) error {
	return WeightedRoom(ctx, workers, limit, weigh, func(ctx context.Context, send func(J) bool, _ func(int64) bool) error {
		return produce(ctx, send)
	}, newWork, emit)
}

// WeightedRoom is Weighted whose producer may also wait, with room(n),
// until a job of weight n would be sent without waiting (n capped at the
// limit, as send caps it), before it gathers that job: a producer that
// reads a whole session into memory before sending it would otherwise hold
// it beside the jobs in flight while send waits. room returns false once
// the run stopped.
func WeightedRoom[J, R any](ctx context.Context, workers int, limit int64, weigh func(J) int64,
	produce func(ctx context.Context, send func(J) bool, room func(int64) bool) error,
	newWork func() func(context.Context, J) R,
	emit func(R) bool) error {
	workers = max(workers, 1)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	inFlight := newBudget(ctx, limit)
	type job struct {
		seq   uint64
		taken int64
		j     J
	}
	// Roomy channels: with one slot per worker, a worker that found the
	// jobs channel empty or the results channel full waited for the
	// producer or the emitter to be scheduled, and the cores of a 2-core
	// machine sat idle for about a tenth of a check. What is in flight is
	// bounded by the budget, not by these buffers.
	jobs := make(chan job, 8*workers)
	type result struct {
		seq   uint64
		taken int64
		r     R
	}
	results := make(chan result, 32*workers)

	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := newWork()
			for j := range jobs {
				results <- result{j.seq, j.taken, work(ctx, j.j)}
			}
		}()
	}
	var produceErr error
	go func() {
		var seq uint64
		produceErr = produce(ctx, func(j J) bool {
			weight := weigh(j)
			taken, ok := inFlight.acquire(weight)
			if !ok {
				return false
			}
			select {
			case jobs <- job{seq, taken, j}:
			case <-ctx.Done():
				return false
			}
			seq++
			if weight > inFlight.limit {
				// A job heavier than the budget is finished before the
				// producer reads on: otherwise the next huge record
				// would be read into memory beside it, and the bound
				// would be two of them.
				return inFlight.waitIdle()
			}
			return true
		}, inFlight.room)
		close(jobs)
		wg.Wait()
		close(results)
	}()

	pending := map[uint64]result{}
	var next uint64
	stopped := false
	for res := range results {
		if stopped {
			continue // drain: let the running jobs finish
		}
		pending[res.seq] = res
		for !stopped {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			inFlight.release(r.taken)
			if !emit(r.r) {
				stopped = true
				cancel()
			}
		}
	}
	return produceErr
}
