package ordered

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestHeavyJobEmittedBeforeNextIsProduced: a job that fills the whole budget
// is emitted before the producer may make the next one, so two huge records
// are never in memory together (the second was read while the first ran).
func TestHeavyJobEmittedBeforeNextIsProduced(t *testing.T) {
	var emitted atomic.Int64
	weights := []int64{1, 100, 1, 100, 100, 1}
	var violations []int
	Weighted(context.Background(), 4, 10, func(w int64) int64 { return w },
		func(ctx context.Context, send func(int64) bool) error {
			for i, w := range weights {
				if i > 0 && weights[i-1] >= 10 && emitted.Load() < int64(i) {
					violations = append(violations, i)
				}
				if !send(w) {
					return nil
				}
			}
			return nil
		},
		func() func(context.Context, int64) int64 { return func(_ context.Context, w int64) int64 { return w } },
		func(int64) bool { emitted.Add(1); return true })
	if len(violations) > 0 {
		t.Errorf("jobs %v were produced before the heavy job before them was emitted", violations)
	}
}
