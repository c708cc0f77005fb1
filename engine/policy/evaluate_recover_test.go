package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// brokenObject is an ast.Object whose other methods panic (its embedded
// Object is nil): no builder makes one, it stands for a bug.
type brokenObject struct{ ast.Object }

// Hash and IsGround answer, so that an array can hold it.
func (brokenObject) Hash() int      { return 0 }
func (brokenObject) IsGround() bool { return true }

// A panic while evaluating one document (here the YAML rules reading a
// message that panics) is that document's error, and the evaluator goes on
// to the next document.
func TestEvaluatePanicIsTheDocumentsError(t *testing.T) {
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"rules.yaml": `rules:
  - id: says-hi
    severity: warning
    description: A message that says hi.
    given: messages[*]
    assert:
      text: {not_equals: hi}
`}))
	ev := e.NewEvaluator()
	broken := ast.NewObject(ast.Item(document.KeyMessages, ast.ArrayTerm(ast.NewTerm(brokenObject{}))))
	_, err := ev.Evaluate(context.Background(), &document.Document{Format: document.Chat, File: "f.jsonl", Line: 3, Value: broken})
	if err == nil || !strings.Contains(err.Error(), "internal error evaluating policies") {
		t.Fatalf("Evaluate of a document without a value: err = %v, want the internal error", err)
	}
	hits, err := ev.Evaluate(context.Background(), chatDoc(t, `{"messages": [{"content": "hi"}]}`))
	if err != nil || len(hits) != 1 || hits[0].Rule != "says-hi" {
		t.Fatalf("the next document: hits %v, err %v; want one says-hi hit", hits, err)
	}
}
