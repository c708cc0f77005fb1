package runner

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkCheckFile measures check with the default packs on one worker
// over the file CHATLINT_BENCH_FILE names (for example message-dense chat
// from `chatlint-gen -shape dense`), so a profile of a data shape the
// checked-in bench records do not have can be taken with -cpuprofile.
func BenchmarkCheckFile(b *testing.B) {
	path := os.Getenv("CHATLINT_BENCH_FILE")
	if path == "" {
		b.Skip("CHATLINT_BENCH_FILE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	packs, err := builtin.Packs()
	if err != nil {
		b.Fatal(err)
	}
	e, err := policy.Compile(context.Background(), packs, policy.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	r := &Runner{Engine: e, Opts: Options{Workers: 1}}
	for b.Loop() {
		_, errs := r.Run(context.Background(), []Input{{Name: "bench.jsonl", Reader: bytes.NewReader(data)}}, func(finding.Finding) {})
		if len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
