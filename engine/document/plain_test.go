package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// TestPlainMessageWithRawView: a Codex message decoded as views is an
// object whose raw (the line's payload) is a view; given whole to a rule
// (a schema test, the json filter), Plain must build that view too, or
// ast.JSON refuses the message ("objectview requires evaluation") and a
// schema test says it is not JSON.
func TestPlainMessageWithRawView(t *testing.T) {
	payload, err := astjson.DecodeProjected([]byte(`{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}`),
		&astjson.Projection{Object: true, View: true, KeepOthers: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := payload.(*astjson.ObjectView); !ok {
		t.Fatalf("payload decoded as %T, want a view", payload)
	}
	msg := ast.NewObject([2]*ast.Term{ast.StringTerm("role"), ast.StringTerm("user")}, [2]*ast.Term{KeyRaw, ast.NewTerm(payload)})
	got := Plain(msg)
	if _, err := ast.JSON(got); err != nil {
		t.Fatalf("ast.JSON(Plain(message)): %v", err)
	}
	want := ast.MustParseTerm(`{"role": "user", "raw": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}}`).Value
	if got.Compare(want) != 0 {
		t.Errorf("Plain(message) = %v, want %v", got, want)
	}
}
