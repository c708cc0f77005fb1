package runner

import "sync"

// budget bounds the input bytes of the jobs in flight: read and not yet
// emitted. A count of jobs would let a file of huge records hold that many
// huge records at once, each decoded several times its size; by bytes, a
// record larger than the whole budget waits until nothing else is in flight
// and is then checked alone.
type budget struct {
	mu    sync.Mutex
	freed sync.Cond
	limit int64
	used  int64
}

func newBudget(limit int64) *budget {
	b := &budget{limit: limit}
	b.freed.L = &b.mu
	return b
}

// acquire waits until n bytes fit and takes them. It returns what it took,
// which is n capped at the limit: pass that to release.
func (b *budget) acquire(n int64) int64 {
	n = min(max(n, 1), b.limit)
	b.mu.Lock()
	for b.used+n > b.limit {
		b.freed.Wait()
	}
	b.used += n
	b.mu.Unlock()
	return n
}

// release gives back what acquire took.
func (b *budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.freed.Broadcast()
}
