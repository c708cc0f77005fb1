package stats

import (
	"context"
	"os"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/runner"
)

// BenchmarkCompute counts the file CHATLINT_BENCH_FILE names (skipped when
// unset) on one worker, so ns/op is CPU per run. Generate one with
//
//	go run ./internal/tools/chatlint-gen -format chat -size 20000000 -seed 1 -o /tmp/chat.jsonl
func BenchmarkCompute(b *testing.B) {
	path := os.Getenv("CHATLINT_BENCH_FILE")
	if path == "" {
		b.Skip("CHATLINT_BENCH_FILE is not set")
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 65536, PricePerMillion: 1}
	r := &runner.Runner{Opts: runner.Options{Workers: 1}}
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		res, errs, err := Compute(context.Background(), r, []runner.Input{{Name: path, Path: path}}, Options{Model: model})
		if err != nil || len(errs) > 0 {
			b.Fatal(err, errs)
		}
		b.ReportMetric(float64(res.Total.Tokens.Total), "tokens")
	}
}
