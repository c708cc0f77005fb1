package yamlrule

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// TestFactsPerDocument checks that a cache read from one document to the
// next gives each document's own format to the rules that name formats.
func TestFactsPerDocument(t *testing.T) {
	rules := compileRules(t, `rules:
  - id: only-sharegpt
    severity: error
    description: d
    formats: [sharegpt]
    given: document
    let:
      all: {join: 'messages[*]'}
    where:
      $all.count: {greater_than: 0}
    cases:
      - message: 'sharegpt'
`)
	doc := func(f document.Format, rec string) ast.Object {
		v, err := astjson.Decode([]byte(rec))
		if err != nil {
			t.Fatal(err)
		}
		return document.NewBuilder(f, "data.jsonl", document.Options{}).Add(1, v.(ast.Object)).Value
	}
	chat := doc(document.Chat, `{"messages": [{"role": "user", "content": "hi"}]}`)
	share := doc(document.ShareGPT, `{"conversations": [{"from": "human", "value": "hi"}]}`)
	cache := &Cache{}
	for i, c := range []struct {
		doc  ast.Object
		hits int
	}{{chat, 0}, {share, 1}, {chat, 0}, {share, 1}} {
		cache.Reset(c.doc)
		if got := len(rules[0].EvalIn(c.doc, cache, nil)); got != c.hits {
			t.Errorf("document %d: %d hits, want %d", i, got, c.hits)
		}
	}
}
