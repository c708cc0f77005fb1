package policy

import (
	"context"
	"slices"
	"testing"
)

// TestJSONTestsTakeOutOfRangeNumbers: arguments holding 1e999999 are JSON
// text (Python and JavaScript read it as inf), not "not JSON text"; an
// object holding one is still an object. (json: array is left as it was: a
// list is read for its items, and sharegpt-tools-invalid's Rego twin
// refuses one the engine cannot hold.)
func TestJSONTestsTakeOutOfRangeNumbers(t *testing.T) {
	e := mustCompile(t, Options{}, packOf(t, map[string]string{"rules.yaml": `rules:
  - id: args-json
    severity: error
    description: Arguments are JSON text.
    given: messages[*].tool_calls[*]
    assert:
      arguments: {json: valid}
  - id: args-object
    severity: error
    description: Arguments are the JSON text of an object.
    given: messages[*].tool_calls[*]
    assert:
      arguments: {json: object}
`}))
	ev := e.NewEvaluator()
	for _, tt := range []struct {
		args string
		want []string
	}{
		{`{\"x\": 1e999999}`, nil},
		{`[1e999999]`, []string{"args-object"}},
		{`{not json`, []string{"args-json", "args-object"}},
	} {
		doc := chatDoc(t, `{"messages": [{"role": "user", "content": "q"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "`+tt.args+`"}}]}]}`)
		hits, err := ev.Evaluate(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range hits {
			got = append(got, h.Rule)
		}
		slices.Sort(got)
		if !slices.Equal(got, tt.want) {
			t.Errorf("arguments %s: rules %v, want %v", tt.args, got, tt.want)
		}
	}
}
