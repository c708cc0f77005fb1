package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The formats fine-tuning providers take besides chat: each record's
// messages, calls, results and tools as the rules see them.
func TestProviderFormatDocuments(t *testing.T) {
	for _, tc := range []struct {
		name   string
		format Format
		line   string
		want   string // the messages, projected
		tools  string // the tools, projected ("" for none)
	}{
		{"prompt and completion", Instruction,
			`{"prompt": "Translate: cat", "completion": "chat"}`,
			`[{"role": "user", "text": "Translate: cat", "path": "/prompt", "raw": {"role": "user", "content": "Translate: cat"}},
			  {"role": "assistant", "text": "chat", "path": "/completion", "raw": {"role": "assistant", "content": "chat"}}]`, ""},
		{"multimodal prompt", Instruction,
			`{"prompt": [{"type": "text", "text": "What is it?"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}], "completion": "A dot."}`,
			`[{"role": "user", "text": "What is it?", "path": "/prompt", "raw": {"role": "user", "content": [{"type": "text", "text": "What is it?"}, {"type": "image_url", "image_url": {"url": "data:image/png;base64,AA=="}}]}},
			  {"role": "assistant", "text": "A dot.", "path": "/completion", "raw": {"role": "assistant", "content": "A dot."}}]`, ""},
		{"alpaca with input", Instruction,
			`{"instruction": "Shorten.", "input": "A very long sentence.", "output": "Short."}`,
			`[{"role": "user", "text": "Shorten.\n\nA very long sentence.", "path": "/instruction", "raw": {"role": "user", "content": "Shorten.\n\nA very long sentence."}},
			  {"role": "assistant", "text": "Short.", "path": "/output", "raw": {"role": "assistant", "content": "Short."}}]`, ""},
		{"alpaca without input", Instruction,
			`{"instruction": "Say hi.", "input": "", "output": "Hi."}`,
			`[{"role": "user", "text": "Say hi.", "path": "/instruction", "raw": {"role": "user", "content": "Say hi."}},
			  {"role": "assistant", "text": "Hi.", "path": "/output", "raw": {"role": "assistant", "content": "Hi."}}]`, ""},
		{"text", Text, `{"text": "Plain prose."}`, `null`, ""},
		{"preference", Preference,
			`{"input": {"messages": [{"role": "user", "content": "Hi"}]}, "preferred_output": [{"role": "assistant", "content": "Hello!"}], "non_preferred_output": [{"role": "assistant", "content": "Go."}]}`,
			`[{"role": "user", "text": "Hi", "path": "/input/messages/0", "raw": {"role": "user", "content": "Hi"}}]`, ""},
		{"preference with a tool call", Preference,
			`{"input": {"messages": [{"role": "user", "content": "Time?"}, {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "clock", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "09:00"}]}, "preferred_output": [{"role": "assistant", "content": "09:00."}], "non_preferred_output": [{"role": "assistant", "content": "Noon."}]}`,
			`[{"role": "user", "text": "Time?", "path": "/input/messages/0", "raw": {"role": "user", "content": "Time?"}},
			  {"role": "assistant", "text": "", "path": "/input/messages/1", "raw": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "clock", "arguments": "{}"}}]},
			   "tool_calls": [{"index": 0, "id": "c1", "name": "clock", "arguments": "{}", "has_input": true, "path": "/input/messages/1/tool_calls/0"}]},
			  {"role": "tool", "text": "09:00", "path": "/input/messages/2", "raw": {"role": "tool", "tool_call_id": "c1", "content": "09:00"}, "tool_call_id": "c1"}]`, ""},
		{"mistral-finetune interactions", Chat,
			`{"interactions": [{"role": "user", "content": "Hi"}, {"role": "assistant", "tool_calls": [{"id": "a1B2c3D4e", "type": "function", "function": {"name": "clock", "arguments": "{}"}}]}, {"role": "tool", "tool_call_id": "a1B2c3D4e", "content": "09:00"}, {"role": "assistant", "content": "09:00."}]}`,
			`[{"role": "user", "text": "Hi", "path": "/interactions/0", "raw": {"role": "user", "content": "Hi"}},
			  {"role": "assistant", "text": "", "path": "/interactions/1", "raw": {"role": "assistant", "tool_calls": [{"id": "a1B2c3D4e", "type": "function", "function": {"name": "clock", "arguments": "{}"}}]},
			   "tool_calls": [{"index": 0, "id": "a1B2c3D4e", "name": "clock", "arguments": "{}", "has_input": true, "path": "/interactions/1/tool_calls/0"}]},
			  {"role": "tool", "text": "09:00", "path": "/interactions/2", "raw": {"role": "tool", "tool_call_id": "a1B2c3D4e", "content": "09:00"}, "tool_call_id": "a1B2c3D4e"},
			  {"role": "assistant", "text": "09:00.", "path": "/interactions/3", "raw": {"role": "assistant", "content": "09:00."}}]`, ""},
		{"bedrock conversation", BedrockConversation,
			`{"schemaVersion": "bedrock-conversation-2024", "system": [{"text": "Be brief."}], "toolConfig": {"tools": [{"toolSpec": {"name": "clock", "inputSchema": {"json": {"type": "object"}}}}]},
			  "messages": [{"role": "user", "content": [{"text": "Time?"}]}, {"role": "assistant", "content": [{"text": "Checking."}, {"toolUse": {"toolUseId": "t1", "name": "clock", "input": {}}}]},
			  {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": [{"json": {"now": "09:00"}}], "status": "success"}}]}, {"role": "assistant", "content": [{"text": "09:00."}]}]}`,
			`[{"role": "system", "text": "Be brief.", "path": "/system"},
			  {"role": "user", "text": "Time?", "path": "/messages/0"},
			  {"role": "assistant", "text": "Checking.", "path": "/messages/1", "tool_calls": [{"index": 0, "id": "t1", "name": "clock", "arguments": {}, "has_input": true, "path": "/messages/1/content/1"}]},
			  {"role": "tool", "text": "{\"now\": \"09:00\"}", "path": "/messages/2/content/0", "tool_call_id": "t1", "is_error": false},
			  {"role": "assistant", "text": "09:00.", "path": "/messages/3"}]`,
			`[{"name": "clock", "path": "/toolConfig/tools/0", "function_path": "/toolConfig/tools/0/toolSpec", "parameters": {"type": "object"}, "parameters_path": "/toolConfig/tools/0/toolSpec/inputSchema/json"}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := Detect(obj(t, tc.line)); !ok || f != tc.format {
				t.Errorf("detected %q, want %s", f, tc.format)
			}
			d := one(t, tc.format, Options{}, tc.line)
			m := docMap(t, d)
			var got any
			if ms := m["messages"].([]any); len(ms) > 0 {
				var ps []map[string]any
				for _, p := range project(ms, "role", "text", "path", "raw", "tool_calls", "tool_call_id", "is_error") {
					if c, ok := p["tool_calls"].([]any); ok && len(c) == 0 {
						delete(p, "tool_calls")
					}
					if tc.format == BedrockConversation {
						delete(p, "raw") // the blocks as given
					}
					ps = append(ps, p)
				}
				got = js(t, string(mustJSON(t, ps)))
			}
			if diff := cmp.Diff(js(t, tc.want), got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if tc.tools != "" {
				tools := project(m["tools"], "name", "path", "function_path", "parameters", "parameters_path")
				if diff := cmp.Diff(js(t, tc.tools), js(t, string(mustJSON(t, tools)))); diff != "" {
					t.Errorf("tools (-want +got):\n%s", diff)
				}
			}
		})
	}
}
