package runner

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/engine/policy/pack"
)

// BenchmarkCheckFile measures check with the default packs on one worker
// over the file CHATLINT_BENCH_FILE names (for example message-dense chat
// from `chatlint-gen -shape dense`), so a profile of a data shape the
// checked-in bench records do not have can be taken with -cpuprofile.
// CHATLINT_BENCH_PACK names a pack folder to run alone instead, as
// `check --no-builtin --pack DIR` does (a team's Rego rule,
// scripts/bench-team).
func BenchmarkCheckFile(b *testing.B) {
	path := os.Getenv("CHATLINT_BENCH_FILE")
	if path == "" {
		b.Skip("CHATLINT_BENCH_FILE is not set")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	packs, err := benchPacks()
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

// benchPacks returns the pack of CHATLINT_BENCH_PACK alone, or the default
// packs.
func benchPacks() ([]*policy.Pack, error) {
	dir := os.Getenv("CHATLINT_BENCH_PACK")
	if dir == "" {
		return builtin.Packs()
	}
	p, err := pack.LoadFS(os.DirFS(dir), ".", dir)
	if err != nil {
		return nil, err
	}
	return []*policy.Pack{p}, nil
}
