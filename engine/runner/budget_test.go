package runner

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/finding"
)

func TestBudgetAcquire(t *testing.T) {
	b := newBudget(10)
	if got := b.acquire(0); got != 1 {
		t.Errorf("acquire(0) took %d, want 1", got)
	}
	b.release(1)
	if got := b.acquire(100); got != 10 {
		t.Errorf("acquire(100) took %d, want the limit 10", got)
	}
	// The budget is full: a waiter gets through only once it is released
	// (this test hangs otherwise).
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		b.release(b.acquire(4))
	}()
	b.release(10)
	wg.Wait()
	if b.used != 0 {
		t.Errorf("used = %d after every release, want 0", b.used)
	}
}

// TestRecordsLargerThanBudget checks that records larger than the whole
// budget are checked one at a time, in order, among small ones.
func TestRecordsLargerThanBudget(t *testing.T) {
	var in strings.Builder
	var want []string
	for i := range 40 {
		text := "a"
		if i%3 == 0 {
			text = strings.Repeat("x", 3000)
		}
		fmt.Fprintf(&in, `{"id":"c%d","messages":[{"role":"user","content":"q"},{"role":"assistant","content":%q}]}`+"\n", i, text)
		want = append(want, fmt.Sprintf("%d chat c%d", i+1, i))
	}
	r := &Runner{Engine: engine(t), Opts: Options{Workers: 4}, budget: 2048}
	var got []string
	_, errs := r.Run(context.Background(), []Input{{Name: "x", Reader: strings.NewReader(in.String())}},
		func(f finding.Finding) { got = append(got, fmt.Sprintf("%d %s", f.Line, f.Message)) })
	if len(errs) > 0 {
		t.Fatalf("Run: %v", errs)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
