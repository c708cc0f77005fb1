package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestToolName: the name the proxy-log builder deduplicates by is the one
// toolTerm gives the tool, whatever the definition's shape.
func TestToolName(t *testing.T) {
	for _, def := range []string{
		`{"type": "function", "function": {"name": "a", "parameters": {}}}`,
		`{"type": "function", "function": {"description": "no name"}, "name": "outer"}`,
		`{"type": "function", "function": {"name": ""}, "name": "outer"}`,
		`{"type": "function", "function": {"name": 7}}`,
		`{"type": "function", "function": "a", "name": "outer"}`,
		`{"name": "b", "input_schema": {}}`,
		`{"description": "no name"}`,
		`"a string"`,
		`null`,
	} {
		raw := obj(t, `{"t": `+def+`}`).Get(ast.StringTerm("t"))
		want := stringField(toolTerm(0, raw, "/tools/0").Value.(ast.Object), keyName)
		if got := toolName(raw); got != want {
			t.Errorf("toolName(%s) = %q, toolTerm's name %q", def, got, want)
		}
	}
}
