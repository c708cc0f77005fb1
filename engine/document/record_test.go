package document

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestChatWholeDocument compares a whole normalized chat document: the
// example of docs/document.md.
func TestChatWholeDocument(t *testing.T) {
	const (
		user      = `{"role":"user","content":"ls please"}`
		assistant = `{"role":"assistant","content":"Let me look.","tool_calls":[{"id":"call_1","type":"function","function":{"name":"shell","arguments":"{\"cmd\":\"ls\"}"}}]}`
		tool      = `{"role":"tool","tool_call_id":"call_1","content":"file_a\nfile_b"}`
		final     = `{"role":"assistant","content":"Two files."}`
		shell     = `{"type":"function","function":{"name":"shell"}}`
	)
	rec := `{"id":"conv_123","messages":[` + user + `,` + assistant + `,` + tool + `,` + final + `],"tools":[` + shell + `]}`
	lines := make([]string, 12)
	lines[11] = rec
	docs := build(t, Chat, Options{}, "data/train.jsonl", lines...)
	if len(docs) != 1 {
		t.Fatalf("got %d documents", len(docs))
	}
	d := docs[0]
	if d.Format != Chat || d.File != "data/train.jsonl" || d.Line != 12 || d.ID != "conv_123" {
		t.Errorf("Document = %+v", *d)
	}
	want := js(t, `{
		"format": "chat",
		"file": "data/train.jsonl",
		"line": 12,
		"id": "conv_123",
		"mode": "structured",
		"profile": "default",
		"messages": [
			{"index": 0, "role": "user", "text": "ls please", "has_content": true, "tool_calls": [],
			 "turn": -1, "line": 12, "path": "/messages/0", "raw": `+user+`},
			{"index": 1, "role": "assistant", "text": "Let me look.", "has_content": true,
			 "tool_calls": [
				{"index": 0, "id": "call_1", "name": "shell", "arguments": "{\"cmd\":\"ls\"}",
				 "has_input": true, "path": "/messages/1/tool_calls/0"}
			 ],
			 "turn": 1, "line": 12, "path": "/messages/1", "raw": `+assistant+`},
			{"index": 2, "role": "tool", "text": "file_a\nfile_b", "has_content": true, "tool_calls": [],
			 "tool_call_id": "call_1", "turn": 1, "line": 12, "path": "/messages/2", "raw": `+tool+`},
			{"index": 3, "role": "assistant", "text": "Two files.", "has_content": true, "tool_calls": [],
			 "turn": 3, "line": 12, "path": "/messages/3", "raw": `+final+`}
		],
		"tools": [
			{"index": 0, "name": "shell", "path": "/tools/0", "raw": `+shell+`,
			 "function": {"name": "shell"}, "function_path": "/tools/0/function",
			 "parameters_path": "/tools/0/function/parameters"}
		],
		"entries": [],
		"raw": `+rec+`,
		"lookup": {"assistant": [1, 3], "tool": [2], "calls": [[1, "call_1"]], "call_ids": ["call_1"], "call_names": ["shell"],
			"results": [[1, "call_1"]], "tool_call_lists": [1], "roles": ["assistant", "tool", "user"], "tool_names": ["shell"],
			"message_keys": ["content", "role", "tool_call_id", "tool_calls"], "content_not_string": []}
	}`)
	if diff := cmp.Diff(want, goValue(t, d.Value)); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestChatEmptyRecord(t *testing.T) {
	for _, rec := range []string{`{"messages":[]}`, `{"messages":null}`, `{"messages":"x","tools":{"a":1}}`, `{}`} {
		d := one(t, Chat, Options{}, rec)
		want := js(t, `{"format":"chat","file":"f.jsonl","line":1,"id":"f.jsonl:1","mode":"structured","profile":"default",
			"messages":[],"tools":[],"entries":[],"raw":`+rec+`,`+emptyLookupJSON+`}`)
		if diff := cmp.Diff(want, goValue(t, d.Value)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", rec, diff)
		}
	}
}

// TestMessageFields checks role, text, has_content, tool_call_id and turn
// of one message or a short conversation.
func TestMessageFields(t *testing.T) {
	tests := []struct {
		name     string
		messages string // the messages array
		want     string // the messages projected on role, text, has_content, tool_call_id, turn
	}{
		{
			name:     "string content",
			messages: `[{"role":"user","content":"hello"}]`,
			want:     `[{"role":"user","text":"hello","has_content":true,"turn":-1}]`,
		},
		{
			name:     "empty string content",
			messages: `[{"role":"user","content":""}]`,
			want:     `[{"role":"user","text":"","has_content":false,"turn":-1}]`,
		},
		{
			name:     "whitespace content is content",
			messages: `[{"role":"user","content":" "}]`,
			want:     `[{"role":"user","text":" ","has_content":true,"turn":-1}]`,
		},
		{
			name:     "null content",
			messages: `[{"role":"assistant","content":null}]`,
			want:     `[{"role":"assistant","text":"","has_content":false,"turn":0}]`,
		},
		{
			name:     "missing content",
			messages: `[{"role":"assistant"}]`,
			want:     `[{"role":"assistant","text":"","has_content":false,"turn":0}]`,
		},
		{
			name:     "empty list content",
			messages: `[{"role":"assistant","content":[]}]`,
			want:     `[{"role":"assistant","text":"","has_content":false,"turn":0}]`,
		},
		{
			name:     "list of text parts joined with newlines",
			messages: `[{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}]`,
			want:     `[{"role":"user","text":"a\nb","has_content":true,"turn":-1}]`,
		},
		{
			name:     "parts with value, bare strings and untyped text",
			messages: `[{"role":"user","content":[{"type":"text","value":"v"},"bare",{"text":"untyped"}]}]`,
			want:     `[{"role":"user","text":"v\nbare\nuntyped","has_content":true,"turn":-1}]`,
		},
		{
			name:     "non-text parts left out of the text",
			messages: `[{"role":"user","content":[{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"a"},{"type":"thinking","thinking":"hm","text":"no"},42,null,{"type":"text","text":"b"}]}]`,
			want:     `[{"role":"user","text":"a\nb","has_content":true,"turn":-1}]`,
		},
		{
			name:     "single non-text part is content without text",
			messages: `[{"role":"assistant","content":[{"type":"toolCall","id":"c","name":"n"}]}]`,
			want:     `[{"role":"assistant","text":"","has_content":true,"turn":0}]`,
		},
		{
			name:     "single part with an empty text",
			messages: `[{"role":"user","content":[{"type":"text","text":""}]}]`,
			want:     `[{"role":"user","text":"","has_content":true,"turn":-1}]`,
		},
		{
			name:     "number content is content without text",
			messages: `[{"role":"user","content":7}]`,
			want:     `[{"role":"user","text":"","has_content":true,"turn":-1}]`,
		},
		{
			name:     "object content with members is content",
			messages: `[{"role":"user","content":{"text":"x"}}]`,
			want:     `[{"role":"user","text":"","has_content":true,"turn":-1}]`,
		},
		{
			name:     "missing role",
			messages: `[{"content":"x"}]`,
			want:     `[{"role":"","text":"x","has_content":true,"turn":-1}]`,
		},
		{
			name:     "role not a string",
			messages: `[{"role":3,"content":"x"}]`,
			want:     `[{"role":"","text":"x","has_content":true,"turn":-1}]`,
		},
		{
			name:     "other roles as given",
			messages: `[{"role":"developer","content":"d"},{"role":"human","content":"h"},{"role":"toolResult","content":"r","toolCallId":"t1"}]`,
			want: `[{"role":"developer","text":"d","has_content":true,"turn":-1},
				{"role":"human","text":"h","has_content":true,"turn":-1},
				{"role":"tool","text":"r","has_content":true,"tool_call_id":"t1","turn":-1}]`,
		},
		{
			name:     "message not an object",
			messages: `["hello",null,[1]]`,
			want: `[{"role":"","text":"","has_content":false,"turn":-1},
				{"role":"","text":"","has_content":false,"turn":-1},
				{"role":"","text":"","has_content":false,"turn":-1}]`,
		},
		{
			name: "tool_call_id only on tool results",
			messages: `[{"role":"assistant","content":"a","tool_call_id":"x"},
				{"role":"tool","tool_call_id":"call_1","content":"r1"},
				{"role":"tool","toolCallId":"call_2","content":"r2"},
				{"role":"tool","toolUseId":"call_3","content":"r3"},
				{"role":"tool","tool_call_id":null,"toolCallId":"call_4","content":"r4"},
				{"role":"tool","tool_call_id":null,"content":"r5"},
				{"role":"tool","content":"r6"},
				{"role":"tool","tool_call_id":7,"content":"r7"},
				{"role":"user","tool_call_id":"y","content":"u"}]`,
			want: `[{"role":"assistant","text":"a","has_content":true,"turn":0},
				{"role":"tool","text":"r1","has_content":true,"tool_call_id":"call_1","turn":0},
				{"role":"tool","text":"r2","has_content":true,"tool_call_id":"call_2","turn":0},
				{"role":"tool","text":"r3","has_content":true,"tool_call_id":"call_3","turn":0},
				{"role":"tool","text":"r4","has_content":true,"tool_call_id":"call_4","turn":0},
				{"role":"tool","text":"r5","has_content":true,"turn":0},
				{"role":"tool","text":"r6","has_content":true,"turn":0},
				{"role":"tool","text":"r7","has_content":true,"tool_call_id":7,"turn":0},
				{"role":"user","text":"u","has_content":true,"turn":0}]`,
		},
		{
			name: "turn follows the latest assistant",
			messages: `[{"role":"system","content":"s"},{"role":"user","content":"u"},
				{"role":"assistant","content":"a1"},{"role":"tool","content":"t"},{"role":"tool","content":"t"},
				{"role":"assistant","content":"a2"},{"role":"user","content":"u2"},{"role":"assistant","content":"a3"}]`,
			want: `[{"role":"system","text":"s","has_content":true,"turn":-1},
				{"role":"user","text":"u","has_content":true,"turn":-1},
				{"role":"assistant","text":"a1","has_content":true,"turn":2},
				{"role":"tool","text":"t","has_content":true,"turn":2},
				{"role":"tool","text":"t","has_content":true,"turn":2},
				{"role":"assistant","text":"a2","has_content":true,"turn":5},
				{"role":"user","text":"u2","has_content":true,"turn":5},
				{"role":"assistant","text":"a3","has_content":true,"turn":7}]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, Chat, Options{}, `{"messages":`+tc.messages+`}`)
			msgs := list(t, d, "messages")
			got := project(msgs, "role", "text", "has_content", "tool_call_id", "turn")
			if diff := cmp.Diff(asMaps(t, js(t, tc.want)), got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			// index, line, path and raw of every message.
			raws := js(t, tc.messages).([]any)
			for i, m := range msgs {
				m := m.(map[string]any)
				wantCommon := map[string]any{"index": float64(i), "line": float64(1), "path": fmt.Sprintf("/messages/%d", i), "raw": raws[i]}
				gotCommon := map[string]any{"index": m["index"], "line": m["line"], "path": m["path"], "raw": m["raw"]}
				if diff := cmp.Diff(wantCommon, gotCommon); diff != "" {
					t.Errorf("message %d (-want +got):\n%s", i, diff)
				}
			}
		})
	}
}

// TestStructuredToolCalls checks the tool calls of one assistant message at
// index 1 (after a user message).
func TestStructuredToolCalls(t *testing.T) {
	tests := []struct {
		name      string
		assistant string
		want      string // the message's tool_calls
	}{
		{
			name:      "no calls",
			assistant: `{"role":"assistant","content":"hi"}`,
			want:      `[]`,
		},
		{
			name:      "tool_calls null or empty",
			assistant: `{"role":"assistant","content":"hi","tool_calls":null,"function_call":null}`,
			want:      `[]`,
		},
		{
			name:      "OpenAI call with a JSON string",
			assistant: `{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"shell","arguments":"{\"cmd\":\"ls\"}"}}]}`,
			want:      `[{"index":0,"id":"call_1","name":"shell","arguments":"{\"cmd\":\"ls\"}","has_input":true,"path":"/messages/1/tool_calls/0"}]`,
		},
		{
			name: "arguments null, empty object, empty string, missing",
			assistant: `{"role":"assistant","tool_calls":[
				{"id":"a","function":{"name":"f","arguments":null}},
				{"id":"b","function":{"name":"f","arguments":{}}},
				{"id":"c","function":{"name":"f","arguments":""}},
				{"id":"d","function":{"name":"f"}},
				{"id":"e","function":{"name":"f","arguments":"{}"}}]}`,
			want: `[
				{"index":0,"id":"a","name":"f","arguments":null,"has_input":false,"path":"/messages/1/tool_calls/0"},
				{"index":1,"id":"b","name":"f","arguments":{},"has_input":true,"path":"/messages/1/tool_calls/1"},
				{"index":2,"id":"c","name":"f","arguments":"","has_input":true,"path":"/messages/1/tool_calls/2"},
				{"index":3,"id":"d","name":"f","has_input":false,"path":"/messages/1/tool_calls/3"},
				{"index":4,"id":"e","name":"f","arguments":"{}","has_input":true,"path":"/messages/1/tool_calls/4"}]`,
		},
		{
			name:      "flat call without function wrapper",
			assistant: `{"role":"assistant","tool_calls":[{"id":"x","name":"search","arguments":{"q":"a"}},{"id":"y","name":"read","input":{"p":1}}]}`,
			want: `[{"index":0,"id":"x","name":"search","arguments":{"q":"a"},"has_input":true,"path":"/messages/1/tool_calls/0"},
				{"index":1,"id":"y","name":"read","arguments":{"p":1},"has_input":true,"path":"/messages/1/tool_calls/1"}]`,
		},
		{
			name:      "arguments null but input given",
			assistant: `{"role":"assistant","tool_calls":[{"id":"x","name":"n","arguments":null,"input":{"a":1}}]}`,
			want:      `[{"index":0,"id":"x","name":"n","arguments":{"a":1},"has_input":true,"path":"/messages/1/tool_calls/0"}]`,
		},
		{
			name:      "function.name wins over name",
			assistant: `{"role":"assistant","tool_calls":[{"id":"x","name":"outer","function":{"name":"inner","arguments":"{}"}}]}`,
			want:      `[{"index":0,"id":"x","name":"inner","arguments":"{}","has_input":true,"path":"/messages/1/tool_calls/0"}]`,
		},
		{
			name:      "function.arguments wins, outer arguments kept when the function has none",
			assistant: `{"role":"assistant","tool_calls":[{"id":"x","arguments":"outer","function":{"name":"f","arguments":"inner"}},{"id":"y","arguments":"outer","function":{"name":"f"}},{"id":"z","arguments":"outer","function":{"name":"f","arguments":null}}]}`,
			want: `[{"index":0,"id":"x","name":"f","arguments":"inner","has_input":true,"path":"/messages/1/tool_calls/0"},
				{"index":1,"id":"y","name":"f","arguments":"outer","has_input":true,"path":"/messages/1/tool_calls/1"},
				{"index":2,"id":"z","name":"f","arguments":"outer","has_input":true,"path":"/messages/1/tool_calls/2"}]`,
		},
		{
			name:      "id and name missing or not strings",
			assistant: `{"role":"assistant","tool_calls":[{"function":{"arguments":"{}"}},{"id":5,"function":{"name":["x"]}}]}`,
			want: `[{"index":0,"id":"","name":"","arguments":"{}","has_input":true,"path":"/messages/1/tool_calls/0"},
				{"index":1,"id":"","name":"","has_input":false,"path":"/messages/1/tool_calls/1"}]`,
		},
		{
			name:      "non-object entries skipped, paths keep their position",
			assistant: `{"role":"assistant","tool_calls":["call_1",null,{"id":"c","function":{"name":"f","arguments":"{}"}}]}`,
			want:      `[{"index":0,"id":"c","name":"f","arguments":"{}","has_input":true,"path":"/messages/1/tool_calls/2"}]`,
		},
		{
			name: "content blocks: toolCall, toolUse, functionCall, tool_use",
			assistant: `{"role":"assistant","content":[
				{"type":"text","text":"Reading."},
				{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"a"}},
				{"type":"toolUse","id":"t2","name":"write","input":{"path":"b"}},
				{"type":"functionCall","id":"t3","name":"exec","arguments":"{}"},
				{"type":"tool_use","id":"toolu_4","name":"bash","input":{}},
				{"type":"tool_result","tool_use_id":"toolu_0","content":"x"},
				{"type":"thinking","thinking":"..."},
				{"type":"tool_use","id":"toolu_5","name":"noinput"}]}`,
			want: `[
				{"index":0,"id":"t1","name":"read","arguments":{"path":"a"},"has_input":true,"path":"/messages/1/content/1"},
				{"index":1,"id":"t2","name":"write","arguments":{"path":"b"},"has_input":true,"path":"/messages/1/content/2"},
				{"index":2,"id":"t3","name":"exec","arguments":"{}","has_input":true,"path":"/messages/1/content/3"},
				{"index":3,"id":"toolu_4","name":"bash","arguments":{},"has_input":true,"path":"/messages/1/content/4"},
				{"index":4,"id":"toolu_5","name":"noinput","has_input":false,"path":"/messages/1/content/7"}]`,
		},
		{
			name: "tool_calls and content blocks together",
			assistant: `{"role":"assistant","content":[{"type":"tool_use","id":"b","name":"nb","input":null}],
				"tool_calls":[{"id":"a","function":{"name":"na","arguments":"{}"}}]}`,
			want: `[{"index":0,"id":"a","name":"na","arguments":"{}","has_input":true,"path":"/messages/1/tool_calls/0"},
				{"index":1,"id":"b","name":"nb","arguments":null,"has_input":false,"path":"/messages/1/content/0"}]`,
		},
		{
			name:      "calls on a non-assistant message are read too",
			assistant: `{"role":"user","content":[{"type":"tool_use","id":"u","name":"n","input":{}}]}`,
			want:      `[{"index":0,"id":"u","name":"n","arguments":{},"has_input":true,"path":"/messages/1/content/0"}]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, Chat, Options{}, `{"messages":[{"role":"user","content":"q"},`+tc.assistant+`]}`)
			if mode := docMap(t, d)["mode"]; mode != "structured" {
				t.Errorf("mode = %v", mode)
			}
			msgs := list(t, d, "messages")
			got := msgs[1].(map[string]any)["tool_calls"]
			if diff := cmp.Diff(js(t, tc.want), got); diff != "" {
				t.Errorf("tool_calls (-want +got):\n%s", diff)
			}
			if calls := msgs[0].(map[string]any)["tool_calls"]; len(calls.([]any)) != 0 {
				t.Errorf("user message has calls %v", calls)
			}
		})
	}
}

func TestTools(t *testing.T) {
	tests := []struct {
		name  string
		tools string
		want  string // tools without raw
	}{
		{
			name:  "wrapped OpenAI definitions",
			tools: `[{"type":"function","function":{"name":"a","parameters":{}}},{"type":"function","function":{"name":"b"}}]`,
			want: `[{"index":0,"name":"a","path":"/tools/0","function":{"name":"a","parameters":{}},"function_path":"/tools/0/function",
				"parameters":{},"parameters_path":"/tools/0/function/parameters"},
				{"index":1,"name":"b","path":"/tools/1","function":{"name":"b"},"function_path":"/tools/1/function","parameters_path":"/tools/1/function/parameters"}]`,
		},
		{
			name:  "flattened definitions",
			tools: `[{"name":"search","description":"d","parameters":{"type":"object"}}]`,
			want: `[{"index":0,"name":"search","path":"/tools/0","function":{"name":"search","description":"d","parameters":{"type":"object"}},"function_path":"/tools/0",
				"parameters":{"type":"object"},"parameters_path":"/tools/0/parameters"}]`,
		},
		{
			name:  "wrapped without a name inside takes the outer name",
			tools: `[{"name":"outer","function":{"parameters":{}}}]`,
			want: `[{"index":0,"name":"outer","path":"/tools/0","function":{"parameters":{}},"function_path":"/tools/0/function",
				"parameters":{},"parameters_path":"/tools/0/function/parameters"}]`,
		},
		{
			name:  "function not an object is a flattened definition",
			tools: `[{"name":"c","function":"c"}]`,
			want:  `[{"index":0,"name":"c","path":"/tools/0","function":{"name":"c","function":"c"},"function_path":"/tools/0","parameters_path":"/tools/0/parameters"}]`,
		},
		{
			name:  "duplicates kept in chat records",
			tools: `[{"name":"x","v":1},{"name":"x","v":2}]`,
			want: `[{"index":0,"name":"x","path":"/tools/0","function":{"name":"x","v":1},"function_path":"/tools/0","parameters_path":"/tools/0/parameters"},
				{"index":1,"name":"x","path":"/tools/1","function":{"name":"x","v":2},"function_path":"/tools/1","parameters_path":"/tools/1/parameters"}]`,
		},
		{
			name:  "non-object definitions",
			tools: `["shell",null]`,
			want: `[{"index":0,"name":"","path":"/tools/0","function":"shell","function_path":"/tools/0"},
				{"index":1,"name":"","path":"/tools/1","function":null,"function_path":"/tools/1"}]`,
		},
		{
			name:  "Anthropic definitions: input_schema is the parameters",
			tools: `[{"name":"get_weather","description":"d","input_schema":{"type":"object","properties":{}}}]`,
			want: `[{"index":0,"name":"get_weather","path":"/tools/0","function":{"name":"get_weather","description":"d","input_schema":{"type":"object","properties":{}}},"function_path":"/tools/0",
				"parameters":{"type":"object","properties":{}},"parameters_path":"/tools/0/input_schema"}]`,
		},
		// LLaMA-Factory writes the list as a JSON string: the tools are the
		// list it holds, each named by the member (no pointer reaches inside).
		{name: "tools as a JSON string (LLaMA-Factory)", tools: `"[{\"name\":\"x\"}]"`, want: `[{"index":0,"name":"x","path":"/tools","function":{"name":"x"},"function_path":"/tools","parameters_path":"/tools/parameters"}]`},
		{name: "tools as a string holding no list", tools: `"not json"`, want: `[]`},
		{name: "tools null", tools: `null`, want: `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, Chat, Options{}, "", "", `{"messages":[],"tools":`+tc.tools+`}`)
			tools := list(t, d, "tools")
			var raws []any
			if a, ok := js(t, tc.tools).([]any); ok {
				raws = a
			}
			if s, ok := js(t, tc.tools).(string); ok && json.Valid([]byte(s)) { // a JSON string holding the list
				raws, _ = js(t, s).([]any)
			}
			for i, tl := range tools {
				m := tl.(map[string]any)
				if diff := cmp.Diff(raws[i], m["raw"]); diff != "" {
					t.Errorf("tool %d raw (-want +got):\n%s", i, diff)
				}
				delete(m, "raw")
			}
			if diff := cmp.Diff(js(t, tc.want), any(tools)); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIDs(t *testing.T) {
	tests := []struct {
		name   string
		format Format
		lines  []string
		want   string
	}{
		{"chat id", Chat, []string{`{"id":"conv_1","messages":[]}`}, "conv_1"},
		{"chat conversation_id", Chat, []string{`{"conversation_id":"c","id":"i","messages":[]}`}, "c"},
		{"chat without id", Chat, []string{"", `{"messages":[]}`}, "f.jsonl:2"},
		{"chat id not a string", Chat, []string{`{"id":12,"messages":[]}`}, "f.jsonl:1"},
		{"chat empty id", Chat, []string{`{"id":"","messages":[]}`}, "f.jsonl:1"},
		{"chat chat_id is not an id", Chat, []string{`{"chat_id":"k","messages":[]}`}, "f.jsonl:1"},
		{"contract", Contract, []string{`{"conversation_id":"conv_9","user_id":"u","messages":[]}`}, "conv_9"},
		{"contract without conversation_id", Contract, []string{"", "", `{"user_id":"u","messages":[]}`}, "f.jsonl:3"},
		{"proxy-log session_id", ProxyLog, []string{`{"session_id":"s1","request":{"messages":[]}}`, `{"session_id":"s2","request":{"messages":[]}}`}, "s1"},
		{"proxy-log without session_id", ProxyLog, []string{"", `{"id":"x","request":{"messages":[]}}`}, "f.jsonl:2"},
		{"pi-session header id", PiSession, []string{`{"type":"session","id":"sess"}`, `{"type":"message","id":"m1","message":{"role":"user"}}`}, "sess"},
		{"pi-session header without id", PiSession, []string{"", `{"type":"session"}`, `{"type":"message","message":{}}`}, "f.jsonl:2"},
		{"pi-session without header", PiSession, []string{`{"type":"message","id":"m1","message":{}}`}, "f.jsonl:1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, tc.format, Options{}, tc.lines...)
			if d.ID != tc.want {
				t.Errorf("ID = %q, want %q", d.ID, tc.want)
			}
			if got := docMap(t, d)["id"]; got != tc.want {
				t.Errorf("document id = %v, want %q", got, tc.want)
			}
			if got := docMap(t, d)["format"]; got != string(tc.format) || d.Format != tc.format {
				t.Errorf("format = %v / %v, want %v", got, d.Format, tc.format)
			}
		})
	}
}

func TestContractDocument(t *testing.T) {
	rec := `{"conversation_id":"c1","user_id":"u1","timestamp":"2024-01-01T00:00:00Z","messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a"}],"metadata":{"k":"v"}}`
	docs := build(t, Contract, Options{}, "c.jsonl", `{"conversation_id":"c0","messages":[]}`, "", rec)
	if len(docs) != 2 {
		t.Fatalf("got %d documents, want one per record", len(docs))
	}
	d := docs[1]
	want := js(t, `{"format":"contract","file":"c.jsonl","line":3,"id":"c1","mode":"structured","profile":"default",
		"messages":[
			{"index":0,"role":"user","text":"q","has_content":true,"tool_calls":[],"turn":-1,"line":3,"path":"/messages/0","raw":{"role":"user","content":"q"}},
			{"index":1,"role":"assistant","text":"a","has_content":true,"tool_calls":[],"turn":1,"line":3,"path":"/messages/1","raw":{"role":"assistant","content":"a"}}],
		"tools":[],"entries":[],"raw":`+rec+`,
		"lookup":{"assistant":[1],"tool":[],"calls":[],"call_ids":[],"call_names":[],"results":[],"tool_call_lists":[],"roles":["assistant","user"],"tool_names":[],"message_keys":["content","role"],"content_not_string":[]}}`)
	if diff := cmp.Diff(want, goValue(t, d.Value)); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

// TestRecordBuilder checks the per-record builder protocol: a document per
// Add, nothing from Finish.
func TestRecordBuilder(t *testing.T) {
	for _, f := range []Format{Chat, Contract} {
		b := NewBuilder(f, "x.jsonl", Options{})
		if d := b.Finish(); d != nil {
			t.Errorf("%s: Finish before Add = %+v", f, d)
		}
		for line := 1; line <= 3; line++ {
			d := b.Add(line, obj(t, `{"messages":[]}`))
			if d == nil || d.Line != line || d.File != "x.jsonl" || d.Format != f {
				t.Fatalf("%s: Add(%d) = %+v", f, line, d)
			}
		}
		if d := b.Finish(); d != nil {
			t.Errorf("%s: Finish = %+v", f, d)
		}
	}
}
