package runner

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
)

// TestWorkersCapped: Each starts at most MaxWorkers workers whatever
// Workers asks (--workers 1000000 on a 4 KB file took 5.8 GB: a worker
// each, with its evaluators and in-flight budget).
func TestWorkersCapped(t *testing.T) {
	in := strings.Repeat(`{"messages":[{"role":"user","content":"hi"}]}`+"\n", 20)
	r := &Runner{Opts: Options{Format: document.Chat, Workers: 10_000}}
	var made atomic.Int64
	_, errs := Each(context.Background(), r, []Input{{Name: "x.jsonl", Reader: strings.NewReader(in)}},
		func() func(Job) int {
			made.Add(1)
			return func(Job) int { return 0 }
		},
		func(int) {})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := made.Load(); n > int64(MaxWorkers()) {
		t.Errorf("%d workers made, want at most %d", n, MaxWorkers())
	}
}
