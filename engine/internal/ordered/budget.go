package ordered

import (
	"context"
	"sync"
)

// budget bounds the weight of the jobs in flight: sent and not yet emitted.
// A count of jobs would let a file of huge records hold that many huge
// records at once, each decoded several times its size; by bytes, a record
// larger than the whole budget waits until nothing else is in flight and is
// then checked alone.
type budget struct {
	mu     sync.Mutex
	freed  sync.Cond
	limit  int64
	used   int64
	closed bool // the run stopped: acquire no longer waits
}

// newBudget returns a budget that stops making callers wait once ctx is done.
func newBudget(ctx context.Context, limit int64) *budget {
	b := &budget{limit: max(limit, 1)}
	b.freed.L = &b.mu
	context.AfterFunc(ctx, func() {
		b.mu.Lock()
		b.closed = true
		b.mu.Unlock()
		b.freed.Broadcast()
	})
	return b
}

// acquire waits until n fits and takes it. It returns what it took, n
// capped at the limit (pass that to release), and false when the run
// stopped while it waited.
func (b *budget) acquire(n int64) (int64, bool) {
	n = min(max(n, 1), b.limit)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used+n > b.limit && !b.closed {
		b.freed.Wait()
	}
	if b.closed {
		return 0, false
	}
	b.used += n
	return n, true
}

// room waits until n (capped at the limit) would fit, without taking it;
// false when the run stopped.
func (b *budget) room(n int64) bool {
	n = min(max(n, 1), b.limit)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used+n > b.limit && !b.closed {
		b.freed.Wait()
	}
	return !b.closed
}

// release gives back what acquire took.
func (b *budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.freed.Broadcast()
}

// waitIdle waits until nothing is in flight; false when the run stopped.
func (b *budget) waitIdle() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && !b.closed {
		b.freed.Wait()
	}
	return !b.closed
}
