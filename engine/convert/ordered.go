package convert

import (
	"context"
	"sync"
)

// ordered runs work on items 0..n-1 with the given number of goroutines and
// hands the results to emit in item order, on the caller's goroutine. At most
// window items are in flight or waiting for an earlier one, so memory is
// bounded by window results whatever n is. emit returning false stops the run:
// no new item starts, and ordered returns once the running ones finish.
// work gets the worker's number, for per-worker state.
func ordered[T any](ctx context.Context, n, workers, window int, work func(ctx context.Context, worker, item int) T, emit func(item int, r T) bool) {
	if workers < 1 {
		workers = 1
	}
	if window < workers {
		window = workers
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	slots := make(chan struct{}, window)
	jobs := make(chan int)
	type result struct {
		item int
		r    T
	}
	results := make(chan result, window)
	go func() {
		defer close(jobs)
		for i := 0; i < n; i++ {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results <- result{i, work(ctx, w, i)}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()
	pending := map[int]T{}
	next := 0
	stopped := false
	for res := range results {
		if stopped {
			continue // drain: let the running items finish
		}
		pending[res.item] = res.r
		for !stopped {
			r, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			<-slots
			if !emit(next, r) {
				stopped = true
				cancel()
			}
			next++
		}
	}
}
