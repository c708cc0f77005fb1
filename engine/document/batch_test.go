package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Each batch line is a document of the request (or result) it wraps, its
// messages pointed at inside the line, named by custom_id.
func TestBatchDocuments(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		line   string
		want   string // messages: role, path, tool_call_id
		calls  string
		tools  string
	}{
		{
			"openai input", OpenAIBatchInput,
			`{"custom_id":"r1","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"ok"}],"tools":[{"type":"function","function":{"name":"f"}}]}}`,
			`[{"role":"user","path":"/body/messages/0"},{"role":"assistant","path":"/body/messages/1"},{"role":"tool","path":"/body/messages/2","tool_call_id":"c1"}]`,
			`[[1, "c1", "f", "{}", "/body/messages/1/tool_calls/0", null]]`,
			`[{"name":"f","path":"/body/tools/0"}]`,
		},
		{
			"openai input embeddings", OpenAIBatchInput,
			`{"custom_id":"e1","method":"POST","url":"/v1/embeddings","body":{"model":"m","input":"hi"}}`,
			`[]`, `null`, `[]`,
		},
		{
			"openai output", OpenAIBatchOutput,
			`{"id":"b1","custom_id":"r1","response":{"status_code":200,"body":{"choices":[{"index":0,"message":{"role":"assistant","content":"4"}}]}},"error":null}`,
			`[{"role":"assistant","path":"/response/body/choices/0/message"}]`, `null`, `[]`,
		},
		{
			"openai output failed", OpenAIBatchOutput,
			`{"id":"b1","custom_id":"r1","response":null,"error":{"code":"batch_expired","message":"x"}}`,
			`[]`, `null`, `[]`,
		},
		{
			"anthropic request", AnthropicBatch,
			`{"custom_id":"r1","params":{"model":"m","max_tokens":9,"system":[{"type":"text","text":"Be brief."}],"tools":[{"name":"f","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[{"type":"tool_use","id":"tu1","name":"f","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"ok"}]}]}}`,
			`[{"role":"system","path":"/params/system"},{"role":"user","path":"/params/messages/0"},{"role":"assistant","path":"/params/messages/1"},{"role":"tool","path":"/params/messages/2/content/0","tool_call_id":"tu1"}]`,
			`[[2, "tu1", "f", {}, "/params/messages/1/content/0", null]]`,
			`[{"name":"f","path":"/params/tools/0"}]`,
		},
		{
			"anthropic result", AnthropicBatch,
			`{"custom_id":"r1","result":{"type":"succeeded","message":{"id":"msg_1","type":"message","role":"assistant","content":[{"type":"text","text":"hello"}],"stop_reason":"end_turn"}}}`,
			`[{"role":"assistant","path":"/result/message"}]`, `null`, `[]`,
		},
		{
			"anthropic result errored", AnthropicBatch,
			`{"custom_id":"r1","result":{"type":"errored","error":{"type":"error","error":{"type":"api_error","message":"x"}}}}`,
			`[]`, `null`, `[]`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, tc.format, Options{}, tc.line)
			got := project(list(t, d, "messages"), "role", "path", "tool_call_id")
			if diff := cmp.Diff(asMaps(t, js(t, tc.want)), got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			var wantCalls []any
			if c, ok := js(t, tc.calls).([]any); ok {
				wantCalls = c
			}
			if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(asMaps(t, js(t, tc.tools)), project(list(t, d, "tools"), "name", "path")); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			if d.ID != "r1" && d.ID != "e1" {
				t.Errorf("id %q, want the custom_id", d.ID)
			}
		})
	}
}

// MarkDuplicate puts the reader's fact on the document for the rule.
func TestMarkDuplicate(t *testing.T) {
	d := one(t, OpenAIBatchInput, Options{}, `{"custom_id":"r1","body":{"messages":[]}}`)
	if _, ok := docMap(t, d)["duplicate"]; ok {
		t.Fatal("a document is no duplicate until the reader says so")
	}
	d.MarkDuplicate("custom_id", "r1", 3)
	if diff := cmp.Diff(js(t, `{"member":"custom_id","value":"r1","first_line":3}`), docMap(t, d)["duplicate"]); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if m, v := customID(obj(t, `{"custom_id":"x"}`)); m != "custom_id" || v != "x" {
		t.Errorf("UniqueKey = %q, %q", m, v)
	}
}
