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

// BenchmarkEvaluateSessionPacks measures the evaluator per proxy-log session
// (fixtures/bench/proxy-log.jsonl, one document) with every built-in check
// rule (all), only the YAML rules (yaml: the integrity pack's session rules
// among them, rules/integrity/session.yaml) and only the Rego rules (rego).
// BenchmarkEvaluateSession measures the Rego rules alone.
func BenchmarkEvaluateSessionPacks(b *testing.B) {
	lines, err := benchdata.Lines("proxy-log.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	bl := document.NewBuilder(document.ProxyLog, "session.jsonl", document.Options{})
	size := 0
	for j, l := range lines {
		v, err := astjson.Decode(l)
		if err != nil {
			b.Fatalf("line %d: %v", j+1, err)
		}
		bl.Add(j+1, v.(ast.Object))
		size += len(l) + 1
	}
	doc := bl.Finish()
	packs, err := builtin.Packs()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name       string
		rego, yaml bool
	}{{"all", true, true}, {"yaml", false, true}, {"rego", true, false}} {
		var ps []*policy.Pack
		for _, p := range packs {
			q := &policy.Pack{Name: p.Name, Profiles: p.Profiles}
			if c.rego {
				q.Rego = p.Rego
			}
			if c.yaml {
				q.YAML = p.YAML
			}
			ps = append(ps, q)
		}
		e, err := policy.Compile(context.Background(), ps, policy.Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			ev := e.NewEvaluator()
			ctx := context.Background()
			b.SetBytes(int64(size))
			for b.Loop() {
				if _, err := ev.Evaluate(ctx, doc); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
