package fix

import (
	"context"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkEvaluatePacks measures one evaluation per record of each
// built-in pack on the benchmark data (no actions are applied): what a
// record no rule touches costs fix, next to what it costs check.
func BenchmarkEvaluatePacks(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var docs []*document.Document
	for i, l := range lines {
		v, err := astjson.Decode(l)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, document.NewBuilder(document.Chat, "bench.jsonl", document.Options{}).Add(i+1, v.(ast.Object)))
	}
	packs, err := builtin.All()
	if err != nil {
		b.Fatal(err)
	}
	if extra := os.Getenv("CHATLINT_BENCH_PACK"); extra != "" {
		p, err := policy.LoadFS(os.DirFS(extra), ".", extra)
		if err != nil {
			b.Fatal(err)
		}
		packs = append(packs, p)
	}
	for _, p := range packs {
		e, err := policy.Compile(context.Background(), []*policy.Pack{p}, policy.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(p.Name, func(b *testing.B) {
			ev := e.NewEvaluator()
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, _, err := ev.EvaluateActions(ctx, docs[i%len(docs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
