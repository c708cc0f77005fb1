package fix

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/document"
)

// Fixes in formats whose messages are not {role, content} are written in
// the format's own layout (document.Layout), or refused with the reason.
func TestApplyLayouts(t *testing.T) {
	sharegpt := `{"id":"s","conversations":[{"from":"human","value":"q"},{"from":"function_call","value":"{\"name\": \"f\", \"arguments\": {}}"},{"from":"gpt","value":"done"}]}`
	gemini := `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"functionResponse":{"id":"x","name":"g","response":{}}}]}]}`
	batch := `{"custom_id":"r1","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"z","content":"x"}]}}`
	cases := []struct {
		name    string
		format  document.Format
		in      string
		actions []string
		want    string
		rejects []string
		err     string
	}{
		{
			name: "sharegpt: an inserted OpenAI tool result becomes an observation turn", format: document.ShareGPT, in: sharegpt,
			actions: []string{`{"op":"insert_message","target":"/messages/1","message":{"role":"tool","tool_call_id":"sharegpt-1-0","content":"error: no result"}}`},
			want:    `{"id":"s","conversations":[{"from":"human","value":"q"},{"from":"function_call","value":"{\"name\": \"f\", \"arguments\": {}}"},{"from":"observation","value":"error: no result"},{"from":"gpt","value":"done"}]}` + "\n",
		},
		{
			name: "sharegpt: set_content sets value; a turn given as a turn stays", format: document.ShareGPT, in: sharegpt,
			actions: []string{
				`{"op":"set_content","target":"/messages/2","content":"Done."}`,
				`{"op":"insert_message","target":"/messages/0","position":"before","message":{"from":"system","value":"S"}}`,
				`{"op":"insert_message","target":"/messages/2","message":{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"g","arguments":"{\"a\":1}"}}]}}`,
			},
			want: `{"id":"s","conversations":[{"from":"system","value":"S"},{"from":"human","value":"q"},{"from":"function_call","value":"{\"name\": \"f\", \"arguments\": {}}"},{"from":"gpt","value":"Done."},{"from":"function_call","value":"{\"name\":\"g\",\"arguments\":{\"a\":1}}"}]}` + "\n",
		},
		{
			name: "sharegpt: dropped turns go to the rejects as turns", format: document.ShareGPT, in: sharegpt,
			actions: []string{`{"op":"drop_message","target":"/messages/2"}`},
			want:    `{"id":"s","conversations":[{"from":"human","value":"q"},{"from":"function_call","value":"{\"name\": \"f\", \"arguments\": {}}"}]}` + "\n",
			rejects: []string{`1 drop_message {"from":"gpt","value":"done"}`},
		},
		{
			name: "sharegpt: a value is a string", format: document.ShareGPT, in: sharegpt,
			actions: []string{`{"op":"set_content","target":"/messages/0","content":[{"type":"text","text":"q"}]}`},
			err:     "in a sharegpt file: a ShareGPT value is a string",
		},
		{
			name: "sharegpt: a call inside a value is not renamed", format: document.ShareGPT, in: sharegpt,
			actions: []string{`{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/0","id":"n"}`},
			err:     "the call is not an object",
		},
		{
			name: "gemini: set_content writes parts, drop a response part", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"set_content","target":"/messages/0","content":"Q"}`, `{"op":"drop_message","target":"/messages/3"}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"Q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}}]}]}` + "\n",
			rejects: []string{`1 drop_message {"functionResponse":{"id":"x","name":"g","response":{}}}`},
		},
		{
			name: "gemini: set_content on a function response writes its response, not parts", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"set_content","target":"/messages/3","content":"[trimmed]"}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"functionResponse":{"id":"x","name":"g","response":{"content":"[trimmed]"}}}]}]}` + "\n",
		},
		{
			name: "gemini: an object content is the response itself", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"set_content","target":"/messages/2","content":{"output":"ok"}}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{"output":"ok"}}},{"functionResponse":{"id":"x","name":"g","response":{}}}]}]}` + "\n",
		},
		{
			name: "gemini: rename sets the functionCall's id and its response's", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/0","id":"f_1"}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{},"id":"f_1"}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{},"id":"f_1"}},{"functionResponse":{"id":"x","name":"g","response":{}}}]}]}` + "\n",
		},
		{
			name: "gemini: drop a call part", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"drop_tool_call","target":"/messages/1/tool_calls/1"}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"functionResponse":{"id":"x","name":"g","response":{}}}]}]}` + "\n",
			rejects: []string{`1 drop_tool_call {"functionCall":{"id":"x","name":"g","args":{}}}`},
		},
		{
			name: "gemini: a result without its function's name cannot be inserted", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"insert_message","target":"/messages/3","message":{"role":"tool","tool_call_id":"y","content":"e"}}`},
			err:     "a Gemini functionResponse needs the function's name",
		},
		{
			name: "gemini: an inserted result with a name", format: document.Gemini, in: gemini,
			actions: []string{`{"op":"insert_message","target":"/messages/0","message":{"role":"tool","tool_call_id":"y","name":"h","content":"e"}}`},
			want:    `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"user","parts":[{"functionResponse":{"id":"y","name":"h","response":{"content":"e"}}}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}},{"functionCall":{"id":"x","name":"g","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"functionResponse":{"id":"x","name":"g","response":{}}}]}]}` + "\n",
		},
		{
			name: "openai batch input: the request's messages, in place", format: document.OpenAIBatchInput, in: batch,
			actions: []string{`{"op":"drop_message","target":"/messages/1"}`, `{"op":"insert_message","target":"/messages/0","position":"before","message":{"role":"system","content":"S"}}`},
			want:    `{"custom_id":"r1","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"system","content":"S"},{"role":"user","content":"q"}]}}` + "\n",
			rejects: []string{`1 drop_message {"role":"tool","tool_call_id":"z","content":"x"}`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := applyCase(t, c.format, records(c.in), c.actions, c.err)
			if res == nil {
				return
			}
			if diff := cmp.Diff(c.want, lines(res)); diff != "" {
				t.Errorf("records (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(c.rejects, rejectLines(res)); diff != "" {
				t.Errorf("rejects (-want +got):\n%s", diff)
			}
		})
	}
}

// Run refuses a format that cannot be rewritten in its layout before any
// rule runs: the caller leaves the file alone.
func TestRunRefusesUnfixable(t *testing.T) {
	for _, tc := range []struct {
		format document.Format
		line   string
		refuse bool
	}{
		{document.OpenAIBatchOutput, `{"custom_id":"r1","response":{"status_code":200,"body":{}},"error":null}`, true},
		{document.AnthropicBatch, `{"custom_id":"r1","result":{"type":"expired"}}`, true},
		{document.AnthropicBatch, `{"custom_id":"r1","params":{"messages":[]}}`, false},
		{document.OpenAIBatchInput, `{"custom_id":"r1","body":{"messages":[]}}`, false},
	} {
		_, err := Run(context.Background(), nil, records(tc.line), Options{Format: tc.format, File: "t.jsonl"})
		var ue *UnfixableError
		if errors.As(err, &ue) != tc.refuse {
			t.Errorf("%s %s: error %v, want refusal %v", tc.format, tc.line, err, tc.refuse)
		}
		if tc.refuse && (ue.Line != 1 || ue.Format != tc.format) {
			t.Errorf("refusal %+v", ue)
		}
	}
}
