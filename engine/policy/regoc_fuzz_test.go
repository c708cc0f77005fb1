package policy_test

import (
	"maps"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

var regocFuzzEngines = sync.OnceValues(func() ([2]*policy.Engine, error) {
	src, err := os.ReadFile("../../scripts/bench-pack/unmatched.rego")
	if err != nil {
		return [2]*policy.Engine{}, err
	}
	cases := maps.Clone(regocCases)
	maps.Copy(cases, regocConflictCases)
	packs := append(regocCasePacks(cases), &policy.Pack{Name: "bench", Rego: []policy.File{{Name: "unmatched.rego", Source: src}}})
	c, t, err := regocCompileBoth(packs)
	return [2]*policy.Engine{c, t}, err
})

// FuzzRegoCompiled compares the compiled closures with topdown on random
// records: the construct cases of the differential test and the bench
// pack must give the same hits, actions and errors. A record that is not
// an object with messages is put in one.
func FuzzRegoCompiled(f *testing.F) {
	for _, s := range []string{
		`{"messages": [{"role": "assistant", "tool_calls": [{"id": "a", "function": {"name": "f", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "b", "content": "42"}]}`,
		`{"messages": [{"role": "user", "content": "Some text"}, {"role": "user", "content": "s."}]}`,
		`[{"role": "tool"}, {"role": "tool", "tool_call_id": 1}, {"role": "assistant", "tool_calls": [{"id": 1}, {"id": "1"}]}]`,
		`{"messages": "x", "nonexistent": {"member": [1, {"a": null}]}}`,
	} {
		f.Add(s)
	}
	engines, err := regocFuzzEngines()
	if err != nil {
		f.Fatal(err)
	}
	compiled, topdown := engines[0], engines[1]
	ec, et := compiled.NewEvaluator(), topdown.NewEvaluator()
	f.Fuzz(func(t *testing.T, s string) {
		v, err := astjson.Decode([]byte(s))
		if err != nil {
			return
		}
		rec, ok := v.(ast.Object)
		if !ok {
			rec = ast.NewObject(ast.Item(ast.StringTerm("messages"), ast.NewTerm(v)))
		}
		mk := func(e *policy.Engine) *document.Document {
			return document.NewBuilder(document.Chat, "f.jsonl", document.Options{Fields: e.Fields()}).Add(1, rec)
		}
		want, got := regocRun(et, mk(topdown)), regocRun(ec, mk(compiled))
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: (-topdown +compiled):\n%s", s, d)
		}
	})
}
