package policy_test

import (
	"context"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestRegoEvaluatorsConcurrent: workers share the compiled sets, the store
// and its one read transaction, each with its own queries and cache; run
// at once (and under -race), they give what one evaluator gives alone.
func TestRegoEvaluatorsConcurrent(t *testing.T) {
	lines, err := benchdata.Lines("chat.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var docs []*document.Document
	for i, l := range lines {
		v, err := astjson.Decode(l)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, document.NewBuilder(document.Chat, "bench.jsonl", document.Options{}).Add(i+1, v.(ast.Object)))
	}
	ctx := context.Background()
	e, err := policy.Compile(ctx, oraclePacks(), policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	type result struct {
		hits []policy.Hit
		acts []policy.Action
		err  string
	}
	run := func(ev *policy.Evaluator) []result {
		out := make([]result, len(docs))
		for i, d := range docs {
			h, a, err := ev.EvaluateActions(ctx, d)
			out[i] = result{hits: h, acts: a}
			if err != nil {
				out[i].err = err.Error()
			}
		}
		return out
	}
	want := run(e.NewEvaluator())
	found := 0
	for _, r := range want {
		found += len(r.hits)
	}
	if found == 0 {
		t.Fatal("no hits on the bench records: the test proves nothing")
	}
	var wg sync.WaitGroup
	got := make([][]result, 4)
	for w := range got {
		wg.Go(func() {
			ev := e.NewEvaluator()
			for range 3 {
				got[w] = run(ev)
			}
		})
	}
	wg.Wait()
	for w := range got {
		if diff := cmp.Diff(want, got[w], cmp.AllowUnexported(result{})); diff != "" {
			t.Errorf("worker %d differs (-alone +concurrent):\n%s", w, diff)
		}
	}
}
