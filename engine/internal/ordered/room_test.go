package ordered

import (
	"context"
	"testing"
	"time"
)

// TestRoomWaitsForBudget: room(n) returns only once a job of weight n would
// be sent without waiting, so a producer that gathers a job whole (a
// session file) after asking does not hold it beside a full budget: with a
// budget of 10 and a job of 6 running, room(6) waits until that job is
// emitted.
func TestRoomWaitsForBudget(t *testing.T) {
	gate := make(chan struct{})
	var early bool
	WeightedRoom(context.Background(), 2, 10, func(w int64) int64 { return w },
		func(ctx context.Context, send func(int64) bool, room func(int64) bool) error {
			if !send(6) {
				return nil
			}
			got := make(chan bool)
			go func() { got <- room(6) }()
			select {
			case <-got:
				early = true
			case <-time.After(30 * time.Millisecond):
				close(gate)
				if !<-got {
					t.Error("room returned false in a run that did not stop")
				}
			}
			return nil
		},
		func() func(context.Context, int64) int64 {
			return func(_ context.Context, w int64) int64 { <-gate; return w }
		},
		func(int64) bool { return true })
	if early {
		t.Error("room(6) returned while a job of 6 was in flight in a budget of 10")
	}
}

// TestRoomCappedAtLimit: a weight over the whole budget waits until nothing
// is in flight, as send takes such a job alone, and does not wait forever.
func TestRoomCappedAtLimit(t *testing.T) {
	b := newBudget(context.Background(), 10)
	if !b.room(100) {
		t.Fatal("room(100) on an idle budget of 10: false")
	}
	n, _ := b.acquire(1)
	done := make(chan bool)
	go func() { done <- b.room(100) }()
	select {
	case <-done:
		t.Fatal("room(100) returned with a job in flight")
	case <-time.After(20 * time.Millisecond):
	}
	b.release(n)
	if !<-done {
		t.Error("room(100) returned false once the budget was idle")
	}
}

// TestRoomStopsWithRun: room returns false once the run stopped, rather
// than waiting for a budget that is never given back.
func TestRoomStopsWithRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	b := newBudget(ctx, 10)
	b.acquire(10)
	done := make(chan bool)
	go func() { done <- b.room(1) }()
	cancel()
	if <-done {
		t.Error("room returned true after the run stopped")
	}
}
