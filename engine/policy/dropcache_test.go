package policy_test

import (
	"context"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
	"github.com/chatlint/chatlint/internal/claudecodegen"
	"github.com/chatlint/chatlint/internal/codexgen"
)

// TestDropCacheSameHits: letting go of the YAML rules' cache before the Rego
// rules run (as for a long session) changes no hit, of that document or of
// the ones the same evaluator checks after it.
func TestDropCacheSameHits(t *testing.T) {
	eng := builtinEngine(t)
	session := func(f document.Format, lines [][]byte) *document.Document {
		b := document.NewBuilder(f, "s.jsonl", document.Options{})
		for i, l := range lines {
			v, err := astjson.Decode(l)
			if err != nil {
				t.Fatal(err)
			}
			b.Add(i+1, v.(ast.Object))
		}
		return b.Finish()
	}
	docs := []*document.Document{
		session(document.ClaudeCode, claudecodegen.Session(600)),
		session(document.Codex, codexgen.Rollout(600)),
		session(document.ClaudeCode, claudecodegen.Session(50)),
	}
	hits := func(above int) [][]policy.Hit {
		defer policy.SetDropCacheAbove(policy.SetDropCacheAbove(above))
		ev := eng.NewEvaluator()
		var out [][]policy.Hit
		for _, d := range docs {
			hs, err := ev.Evaluate(context.Background(), d)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, hs)
		}
		return out
	}
	kept, dropped := hits(math.MaxInt), hits(0)
	if len(kept[0]) == 0 || len(kept[1]) == 0 {
		t.Fatal("no hit: the comparison proves nothing")
	}
	if diff := cmp.Diff(kept, dropped); diff != "" {
		t.Errorf("hits (-cache kept +cache dropped):\n%s", diff)
	}
}
