package policy_test

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// Under the openai profile the built-in packs run OPA only on the records
// the finetune pack's gate (rules/finetune/gate.yaml) fires on: not on a
// clean example whose tokens the run counted within the model's limit, but
// on one over it, one whose tokens were not counted, one a Rego rule
// reports, and on every record under another provider profile.
// (cmd/chatlint's TestFinetuneGateSameFindings holds the findings equal.)
func TestFinetuneGateKeepsOPAOff(t *testing.T) {
	eng := builtinEngine(t)
	model := &document.Model{Name: "m", Encoding: "o200k_base", Limit: 100, PricePerMillion: 1}
	clean := `{"messages": [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "sun"}, {"role": "assistant", "content": "Sunny."}], "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}}}]}`
	tests := []struct {
		name, profile, record string
		tokens                int // -1: not counted
		want                  bool
	}{
		{"clean, counted", "openai", clean, 40, false},
		{"clean, at the limit", "openai", clean, 100, false},
		{"over the limit", "openai", clean, 101, true},
		{"not counted", "openai", clean, -1, true},
		{"an unknown message key", "openai", `{"messages": [{"role": "user", "content": "Hi", "ts": 1}, {"role": "assistant", "content": "Hello"}]}`, 10, true},
		{"a weight", "openai", `{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello", "weight": 1}]}`, 10, true},
		{"no assistant", "openai", `{"messages": [{"role": "user", "content": "Hi"}]}`, 10, true},
		{"arguments not a string", "openai", `{"messages": [{"role": "user", "content": "Go"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "go", "arguments": {}}}]}]}`, 10, true},
		{"a tool name with a space", "openai", `{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}], "tools": [{"type": "function", "function": {"name": "get weather"}}]}`, 10, true},
		{"content a list", "openai", `{"messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}, {"role": "assistant", "content": "Hello"}]}`, 10, true},
		{"another profile", "mistral", clean, 40, true},
		// Preference (DPO) records: the gate fires only where
		// openai-preference-shape may report.
		{"preference, clean", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `[{"role": "assistant", "content": "Tea."}]`), 10, false},
		{"preference, several turns", "openai", dpo(`{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}, {"role": "user", "content": "Tea?"}]}`, `[{"role": "assistant", "content": "Tea."}]`), 10, false},
		{"preference, content parts", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `[{"role": "assistant", "content": [{"type": "text", "text": "Tea."}]}]`), 10, false},
		{"preference, input ends on the assistant", "openai", dpo(`{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]}`, `[{"role": "assistant", "content": "Tea."}]`), 10, true},
		{"preference, empty input", "openai", dpo(`{"messages": []}`, `[{"role": "assistant", "content": "Tea."}]`), 10, true},
		{"preference, output not a list", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `{"role": "assistant", "content": "Tea."}`), 10, true},
		{"preference, two outputs", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `[{"role": "assistant", "content": "Tea."}, {"role": "assistant", "content": "Tea."}]`), 10, true},
		{"preference, output the user's", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `[{"role": "user", "content": "Tea."}]`), 10, true},
		{"preference, output without content", "openai", dpo(`{"messages": [{"role": "user", "content": "Tea?"}]}`, `[{"role": "assistant"}]`), 10, true},
		{"no messages, no input object", "openai", `{"input": [{"role": "user", "content": "Tea?"}], "preferred_output": []}`, 10, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ast.ParseTerm(tc.record)
			if err != nil {
				t.Fatal(err)
			}
			opts := document.Options{Profile: tc.profile, Model: model}
			formats := []document.Format{document.Chat}
			if document.Lookup(document.Preference).Detect(v.Value.(ast.Object)) {
				formats = append(formats, document.Preference)
			}
			for _, f := range formats {
				d := document.NewBuilder(f, "f.jsonl", opts).Add(1, v.Value.(ast.Object))
				if tc.tokens >= 0 {
					d.SetExampleTokens(tc.tokens)
				}
				if got := eng.NeedsRego(d); got != tc.want {
					t.Errorf("%s: OPA runs: %v, want %v", f, got, tc.want)
				}
			}
		})
	}
}

// dpo is a preference record of input, with output as both its outputs.
func dpo(input, output string) string {
	return `{"input": ` + input + `, "preferred_output": ` + output + `, "non_preferred_output": ` + output + `}`
}
