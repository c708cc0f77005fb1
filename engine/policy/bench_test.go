package policy_test

import (
	"context"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkEvaluate measures the evaluator per record on the built-in
// packs: the YAML rules alone, the Rego rules alone, and both; and the fixed
// cost of evaluating Rego at all.
func BenchmarkEvaluate(b *testing.B) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var docs []*document.Document
	size := 0
	for i, l := range lines {
		v, err := astjson.Decode(l)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, document.NewBuilder(document.Chat, "bench.jsonl", document.Options{}).Add(i+1, v.(ast.Object)))
		size += len(l) + 1
	}
	packs, err := builtin.Packs()
	if err != nil {
		b.Fatal(err)
	}
	only := func(rego, yaml bool) []*policy.Pack {
		var out []*policy.Pack
		for _, p := range packs {
			q := &policy.Pack{Name: p.Name}
			if rego {
				q.Rego = p.Rego
			}
			if yaml {
				q.YAML = p.YAML
			}
			out = append(out, q)
		}
		return out
	}
	// fixed: one Rego rule that the rule index rules out at once, so what
	// is measured is the cost of an evaluation itself.
	fixed := []*policy.Pack{{Name: "fixed", Rego: []policy.File{{Name: "fixed.rego", Source: []byte(`package chatlint.fixed

# METADATA
# description: Never fires.
# custom:
#   id: never
deny contains f if {
	input.format == "none"
	f := {"rule": "never", "msg": "x"}
}
`)}}}}
	for _, c := range []struct {
		name       string
		rego, yaml bool
	}{{"yaml", false, true}, {"rego", true, false}, {"all", true, true}, {"fixed", false, false}} {
		ps := only(c.rego, c.yaml)
		if c.name == "fixed" {
			ps = fixed
		}
		e, err := policy.Compile(context.Background(), ps, policy.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			ev := e.NewEvaluator()
			ctx := context.Background()
			b.SetBytes(int64(size / len(docs)))
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
