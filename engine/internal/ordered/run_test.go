package ordered

import "context"

// Run is Weighted with every job weighing one, so that at most window jobs
// are in flight: the tests' way of driving the pool by count.
func Run[J, R any](ctx context.Context, workers, window int,
	produce func(ctx context.Context, send func(J) bool) error,
	newWork func() func(context.Context, J) R,
	emit func(R) bool) error {
	window = max(window, max(workers, 1))
	return Weighted(ctx, workers, int64(window), func(J) int64 { return 1 }, produce, newWork, emit)
}
