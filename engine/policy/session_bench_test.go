package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/internal/benchdata"
	"github.com/chatlint/chatlint/engine/policy"
)

// BenchmarkEvaluateSession measures the evaluator per proxy-log session (one
// document per file) with the built-in packs' Rego rules, where the session
// rules run. The sessions are fixtures/bench/proxy-log.jsonl, or every file
// of the folder CHATLINT_BENCH_SESSIONS names (for example one written by
// chatlint-gen -format proxy-log -size 30MB -o DIR/).
func BenchmarkEvaluateSession(b *testing.B) {
	files := [][][]byte{}
	if dir := os.Getenv("CHATLINT_BENCH_SESSIONS"); dir != "" {
		names, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		if err != nil || len(names) == 0 {
			b.Fatalf("CHATLINT_BENCH_SESSIONS=%s: no .jsonl files (%v)", dir, err)
		}
		for _, n := range names {
			lines, err := benchdata.FileLines(n)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, lines)
		}
	} else {
		lines, err := benchdata.Lines("proxy-log.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, lines)
	}
	var docs []*document.Document
	size := 0
	for i, lines := range files {
		bl := document.NewBuilder(document.ProxyLog, "session.jsonl", document.Options{})
		for j, l := range lines {
			v, err := astjson.Decode(l)
			if err != nil {
				b.Fatalf("session %d line %d: %v", i, j+1, err)
			}
			bl.Add(j+1, v.(ast.Object))
			size += len(l) + 1
		}
		docs = append(docs, bl.Finish())
	}
	packs, err := builtin.Packs()
	if err != nil {
		b.Fatal(err)
	}
	var rego []*policy.Pack
	for _, p := range packs {
		rego = append(rego, &policy.Pack{Name: p.Name, Rego: p.Rego})
	}
	e, err := policy.Compile(context.Background(), rego, policy.Options{})
	if err != nil {
		b.Fatal(err)
	}
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
}
