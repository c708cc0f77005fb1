package ordered

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// items sends 0..n-1, stopping when send says so.
func items(n int) func(context.Context, func(int) bool) error {
	return func(_ context.Context, send func(int) bool) error {
		for i := range n {
			if !send(i) {
				return nil
			}
		}
		return nil
	}
}

func TestRunKeepsOrder(t *testing.T) {
	var got []int
	err := Run(context.Background(), 4, 8, items(100),
		func() func(context.Context, int) [2]int {
			return func(_ context.Context, i int) [2]int {
				time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
				return [2]int{i, i * i}
			}
		},
		func(r [2]int) bool {
			if r[1] != r[0]*r[0] {
				t.Errorf("item %d got result %d", r[0], r[1])
			}
			got = append(got, r[0])
			return true
		})
	if err != nil {
		t.Fatal(err)
	}
	want := make([]int, 100)
	for i := range want {
		want[i] = i
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("emit order (-want +got):\n%s", diff)
	}
}

func TestRunStopsAndBoundsWork(t *testing.T) {
	var started atomic.Int64
	var emitted []int
	Run(context.Background(), 3, 6, items(1000),
		func() func(context.Context, int) int {
			return func(_ context.Context, i int) int { started.Add(1); return i }
		},
		func(i int) bool { emitted = append(emitted, i); return i < 9 })
	if len(emitted) != 10 {
		t.Errorf("emitted %d items after a stop at item 9, want 10", len(emitted))
	}
	if n := started.Load(); n > 10+6 {
		t.Errorf("%d items started, want at most the 10 emitted plus a window of 6", n)
	}
}

func TestRunReturnsProduceError(t *testing.T) {
	boom := errors.New("boom")
	var emitted int
	err := Run(context.Background(), 2, 4,
		func(_ context.Context, send func(int) bool) error {
			send(1)
			send(2)
			return boom
		},
		func() func(context.Context, int) int { return func(_ context.Context, i int) int { return i } },
		func(int) bool { emitted++; return true })
	if !errors.Is(err, boom) {
		t.Errorf("Run returned %v, want the producer's error", err)
	}
	if emitted != 2 {
		t.Errorf("emitted %d results, want the 2 sent before the error", emitted)
	}
}
