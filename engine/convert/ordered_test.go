package convert

import (
	"context"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestOrderedKeepsOrder(t *testing.T) {
	var got []int
	ordered(context.Background(), 100, 4, 8,
		func(_ context.Context, _, i int) int {
			time.Sleep(time.Duration(rand.IntN(300)) * time.Microsecond)
			return i * i
		},
		func(i, r int) bool {
			if r != i*i {
				t.Errorf("item %d got result %d", i, r)
			}
			got = append(got, i)
			return true
		})
	want := make([]int, 100)
	for i := range want {
		want[i] = i
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("emit order (-want +got):\n%s", diff)
	}
}

func TestOrderedStopsAndBoundsWork(t *testing.T) {
	var started atomic.Int64
	var emitted []int
	ordered(context.Background(), 1000, 3, 6,
		func(_ context.Context, _, i int) int { started.Add(1); return i },
		func(i, _ int) bool { emitted = append(emitted, i); return i < 9 })
	if len(emitted) != 10 {
		t.Errorf("emitted %d items after a stop at item 9, want 10", len(emitted))
	}
	if n := started.Load(); n > 10+6 {
		t.Errorf("%d items started, want at most the 10 emitted plus a window of 6", n)
	}
}
