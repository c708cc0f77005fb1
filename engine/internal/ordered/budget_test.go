package ordered

import (
	"context"
	"sync"
	"testing"
)

func TestBudgetAcquire(t *testing.T) {
	b := newBudget(context.Background(), 10)
	if got, _ := b.acquire(0); got != 1 {
		t.Errorf("acquire(0) took %d, want 1", got)
	}
	b.release(1)
	if got, _ := b.acquire(100); got != 10 {
		t.Errorf("acquire(100) took %d, want the limit 10", got)
	}
	// The budget is full: a waiter gets through only once it is released
	// (this test hangs otherwise).
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		n, _ := b.acquire(4)
		b.release(n)
	}()
	b.release(10)
	wg.Wait()
	if b.used != 0 {
		t.Errorf("used = %d after every release, want 0", b.used)
	}
}

// TestBudgetStopsWaiting: once the run stops, a producer waiting for room
// gives up instead of hanging.
func TestBudgetStopsWaiting(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := newBudget(ctx, 1)
	b.acquire(1)
	done := make(chan bool)
	go func() {
		_, ok := b.acquire(1)
		done <- ok
	}()
	cancel()
	if <-done {
		t.Error("acquire succeeded on a full budget after the run stopped")
	}
}
