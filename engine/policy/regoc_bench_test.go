package policy_test

import (
	"context"
	"os"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkRegoCompiled measures the one-rule pack of scripts/bench-pack
// per record, evaluated as compiled closures and on topdown
// (CHATLINT_REGO_EVAL=topdown), over documents built with the fields the
// pack reads.
func BenchmarkRegoCompiled(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile("../../scripts/bench-pack/unmatched.rego")
	if err != nil {
		b.Fatal(err)
	}
	packs := []*policy.Pack{{Name: "bench", Rego: []policy.File{{Name: "unmatched.rego", Source: src}}}}
	for _, mode := range []string{"compiled", "topdown"} {
		b.Run(mode, func(b *testing.B) {
			b.Setenv("CHATLINT_REGO_EVAL", mode)
			e, err := policy.Compile(context.Background(), packs, policy.Options{})
			if err != nil {
				b.Fatal(err)
			}
			var docs []*document.Document
			for i, l := range lines {
				v, err := astjson.Decode(l)
				if err != nil {
					b.Fatal(err)
				}
				docs = append(docs, document.NewBuilder(document.Chat, "bench.jsonl", document.Options{Fields: e.Fields()}).Add(i+1, v.(ast.Object)))
			}
			ev := e.NewEvaluator()
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if _, err := ev.Evaluate(ctx, docs[i%len(docs)]); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
