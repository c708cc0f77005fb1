package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// documents builds the documents of one file's lines as check does.
func documents(t *testing.T, f document.Format, lines string) []*document.Document {
	t.Helper()
	b := document.NewBuilder(f, "f.jsonl", document.Options{})
	var docs []*document.Document
	for i, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		v, err := astjson.Decode([]byte(l))
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if d := b.Add(i+1, v.(ast.Object)); d != nil {
			docs = append(docs, d)
		}
	}
	if d := b.Finish(); d != nil {
		docs = append(docs, d)
	}
	return docs
}

// tiny is a model whose limit a short conversation passes.
var tiny = &document.Model{Name: "tiny", Encoding: "o200k_base", Limit: 20}

const weatherTool = `{"type":"function","function":{"name":"get_weather","description":"Weather of a city.","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}}`

func TestConvert(t *testing.T) {
	tests := []convertCase{
		{
			name:   "chat: calls and results as they are",
			format: document.Chat,
			in:     `{"messages":[{"role":"developer","content":"Be brief."},{"role":"user","content":"Paris?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","tool_call_id":"c1","content":"18 C"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Paris?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"c1"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`},
		},
		{
			name:   "Anthropic blocks: the record's system prompt first, tool_use input as a JSON string, tool_result blocks as tool messages, input_schema as parameters; thinking dropped, an image noted",
			format: document.Chat,
			in:     `{"system":[{"type":"text","text":"Be brief."}],"messages":[{"role":"user","content":[{"type":"text","text":"Paris?"},{"type":"image","source":{"type":"base64","data":"AAA"}}]},{"role":"assistant","content":[{"type":"thinking","thinking":"Use the tool."},{"type":"text","text":"Checking."},{"type":"tool_use","id":"tu1","name":"get_weather","input":{"city":"Paris"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"18 C"}]},{"role":"assistant","content":"18 °C."}],"tools":[{"name":"get_weather","description":"Weather of a city.","input_schema":{"type":"object","properties":{"city":{"type":"string"}}}}]}`,
			want:   []string{`{"messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Paris?"},{"role":"assistant","content":"Checking.","tool_calls":[{"id":"tu1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"tu1"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`},
			notes: []string{
				"1: part 1 of message 0 is an image, but its base64 source has no media_type or data: left out",
				"1: the reasoning of message 1 (thinking parts) is left out: --keep-reasoning writes it as <think> text before the assistant's answer",
			},
		},
		{
			name:   "--keep-reasoning: thinking in front of the text",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":[{"type":"thinking","thinking":"Greet back."},{"type":"text","text":"Hello!"}]}]}`,
			opts:   Options{KeepReasoning: true},
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"<think>\nGreet back.\n</think>\nHello!"}]}`},
		},
		{
			name:   "a reasoning message of its own: dropped by default, with a note",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"reasoning","content":"Greet back."},{"role":"assistant","content":"Hello!"}]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}]}`},
			notes:  []string{"1: the reasoning of message 1 (reasoning messages) is left out: --keep-reasoning writes it as <think> text before the assistant's answer"},
		},
		{
			name:   "a reasoning message of its own: --keep-reasoning puts it in front of the next reply",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"reasoning","content":"Greet back."},{"role":"assistant","content":"Hello!"}]}`,
			opts:   Options{KeepReasoning: true},
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"<think>\nGreet back.\n</think>\nHello!"}]}`},
		},
		{
			name:   "inline tags become structured calls and results",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Paris?"},{"role":"assistant","content":"Checking.\n<tool_call>{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}</tool_call>"},{"role":"tool","content":"<tool_result tool_call_id=\"c1\">18 C</tool_result>"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"user","content":"Paris?"},{"role":"assistant","content":"Checking.","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},{"role":"tool","content":"18 C","tool_call_id":"c1"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`},
		},
		{
			name:   "an unanswered call mid-conversation and an orphan result are left out, with notes; a call ending the conversation stays",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"A?"},{"role":"assistant","content":"Let me see.","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"zz","content":"?"},{"role":"user","content":"B?"},{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"user","content":"A?"},{"role":"assistant","content":"Let me see."},{"role":"user","content":"B?"},{"role":"assistant","tool_calls":[{"id":"c2","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}],"tools":[` + weatherTool + `]}`},
			notes: []string{
				`1: tool call "c1" (get_weather) of message 1 has no result: left out`,
				`1: tool result 2 (tool_call_id "zz") answers no tool call of its turn: left out`,
			},
		},
		{
			name:   "an id reused in a later turn is renamed with its result; a legacy function_call becomes a tool call",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"1"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"2"},{"role":"assistant","content":null,"function_call":{"name":"get_weather","arguments":"{}"}},{"role":"function","name":"get_weather","content":"3"},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"1","tool_call_id":"c1"},{"role":"assistant","tool_calls":[{"id":"c1_2","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"2","tool_call_id":"c1_2"},{"role":"assistant","tool_calls":[{"id":"call_5_function_call","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"3","tool_call_id":"call_5_function_call"},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`},
			notes: []string{
				`1: tool call id "c1" of message 3 was used before: written as "c1_2"`,
				`1: assistant message 5 uses the legacy function_call: written as tool call "call_5_function_call"`,
			},
		},
		{
			name:   "a result after a user message moves up to follow its call; arguments that are not JSON are noted",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{city: A}"}}]},{"role":"user","content":"Hurry."},{"role":"tool","tool_call_id":"c1","content":"1"},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{city: A}"}}]},{"role":"tool","content":"1","tool_call_id":"c1"},{"role":"user","content":"Hurry."},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`},
			notes: []string{
				`1: the arguments of tool call 0 of message 1 are not valid JSON: written as given`,
				`1: tool result 3 (tool_call_id "c1") came after other messages: moved up to follow its call`,
			},
		},
		{
			name:   "--split turns: one example per assistant message",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Bye"},{"role":"assistant","content":"Bye!"}]}`,
			opts:   Options{SplitTurns: true},
			want: []string{
				`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}]}`,
				`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Bye"},{"role":"assistant","content":"Bye!"}]}`,
			},
		},
		{
			name:   "a model's token limit: an example over it is noted, and written",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Tell me a long story about the sea."},{"role":"assistant","content":"Once upon a time the sea was calm and the boats were many."}]}`,
			opts:   Options{Model: tiny},
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Tell me a long story about the sea."},{"role":"assistant","content":"Once upon a time the sea was calm and the boats were many."}]}`},
			notes:  []string{"1: the example has about 45 tokens; tiny trains on at most 20 per example (check --profile openai: example-too-long): written as is; shorten or cut the conversation"},
		},
		{
			name:   "a model's token limit with --split turns: the examples over it are named, the early ones under it are not",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Tell me a long story about the sea."},{"role":"assistant","content":"Once upon a time the sea was calm and the boats were many."}]}`,
			opts:   Options{Model: tiny, SplitTurns: true},
			want: []string{
				`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}]}`,
				`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"},{"role":"user","content":"Tell me a long story about the sea."},{"role":"assistant","content":"Once upon a time the sea was calm and the boats were many."}]}`,
			},
			notes: []string{"1: examples 2 to 2 of 2 have more tokens than tiny trains on per example (20; the last has about 45; check --profile openai: example-too-long): each holds the conversation up to its turn, so splitting by turns does not shorten them: written as is; shorten or cut the conversation"},
		},
		{
			name:   "a model's token limit: an example under it has no note",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}]}`,
			opts:   Options{Model: tiny},
			want:   []string{`{"messages":[{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello!"}]}`},
		},
		{
			name:   "no assistant message: no example",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"Hi"}]}`,
			notes:  []string{"!1: no assistant message to train on: no example written"},
		},
		{
			name:   "pi-session: toolCall blocks and toolResult entries; thinking dropped; undefined tools defined with an open schema",
			format: document.PiSession,
			in: `{"type":"session","id":"s1","cwd":"/tmp"}
{"type":"message","id":"m1","message":{"role":"user","content":[{"type":"text","text":"List /tmp."}]}}
{"type":"message","id":"m2","message":{"role":"assistant","content":[{"type":"thinking","thinking":"ls it."},{"type":"toolCall","id":"t1","name":"bash","arguments":{"command":"ls /tmp"}}],"stopReason":"toolUse"}}
{"type":"message","id":"m3","message":{"role":"toolResult","toolCallId":"t1","toolName":"bash","content":[{"type":"text","text":"a b"}],"isError":false}}
{"type":"message","id":"m4","message":{"role":"assistant","content":[{"type":"text","text":"a and b."}],"stopReason":"stop"}}`,
			want: []string{`{"messages":[{"role":"user","content":"List /tmp."},{"role":"assistant","tool_calls":[{"id":"t1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls /tmp\"}"}}]},{"role":"tool","content":"a b","tool_call_id":"t1"},{"role":"assistant","content":"a and b."}],"tools":[{"type":"function","function":{"name":"bash","parameters":{"properties":{},"type":"object"}}}]}`},
			notes: []string{
				"3: the reasoning of message 1 (thinking parts) is left out: --keep-reasoning writes it as <think> text before the assistant's answer",
				"1: the conversation calls tools it does not define (bash): each is written with a schema that takes any object",
			},
		},
		{
			name:   "claude-code: an empty result marked successful gets a neutral text, a failed one and a successful JSON one are noted; each result noted on its own line",
			format: document.ClaudeCode,
			in: `{"parentUuid":null,"isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":"Stop the job."},"uuid":"u1"}
{"parentUuid":"u1","isSidechain":false,"sessionId":"s","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"kill 1"}},{"type":"tool_use","id":"t2","name":"Bash","input":{"command":"kill 2"}},{"type":"tool_use","id":"t3","name":"Read","input":{"file_path":"theme.json"}}]},"uuid":"a1"}
{"parentUuid":"a1","isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"","is_error":false}]},"uuid":"r1"}
{"parentUuid":"r1","isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"no such process","is_error":true}]},"uuid":"r2"}
{"parentUuid":"r2","isSidechain":false,"sessionId":"s","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t3","content":"{\"colors\": {\"error\": \"red\"}}","is_error":false}]},"uuid":"r3"}
{"parentUuid":"r3","isSidechain":false,"sessionId":"s","type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Stopped."}]},"uuid":"a2"}`,
			want: []string{`{"messages":[{"role":"user","content":"Stop the job."},{"role":"assistant","tool_calls":[{"id":"t1","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"kill 1\"}"}},{"id":"t2","type":"function","function":{"name":"Bash","arguments":"{\"command\":\"kill 2\"}"}},{"id":"t3","type":"function","function":{"name":"Read","arguments":"{\"file_path\":\"theme.json\"}"}}]},{"role":"tool","content":"Tool ran without output or errors","tool_call_id":"t1"},{"role":"tool","content":"no such process","tool_call_id":"t2"},{"role":"tool","content":"{\"colors\": {\"error\": \"red\"}}","tool_call_id":"t3"},{"role":"assistant","content":"Stopped."}],"tools":[{"type":"function","function":{"name":"Bash","parameters":{"properties":{},"type":"object"}}},{"type":"function","function":{"name":"Read","parameters":{"properties":{},"type":"object"}}}]}`},
			notes: []string{
				`3: tool result 2 (tool_call_id "t1") is empty and marked successful in its source (is_error false); an empty OpenAI tool message reads as a failure: written as "Tool ran without output or errors"`,
				`4: tool result 3 (tool_call_id "t2") is marked failed in its source (is_error true); OpenAI chat has no error flag and its text no flag key: written as given, only its words tell the failure`,
				`5: tool result 4 (tool_call_id "t3") is marked successful in its source (is_error false) but its JSON has a truthy flag key at /colors/error; OpenAI chat has no error flag, so check's tool-result-flagged will read it as failed: written as given`,
				"1: the conversation calls tools it does not define (Bash, Read): each is written with a schema that takes any object",
			},
		},
		{
			name:   "pi-session: a failed result that still reads as failed (a flag key, or empty) is not noted",
			format: document.PiSession,
			in: `{"type":"session","id":"s1","cwd":"/tmp"}
{"type":"message","id":"m1","message":{"role":"user","content":[{"type":"text","text":"Read a and b."}]}}
{"type":"message","id":"m2","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"read","arguments":{"path":"a"}},{"type":"toolCall","id":"t2","name":"read","arguments":{"path":"b"}}],"stopReason":"toolUse"}}
{"type":"message","id":"m3","message":{"role":"toolResult","toolCallId":"t1","toolName":"read","content":[{"type":"text","text":"{\"error\": \"no such file\"}"}],"isError":true}}
{"type":"message","id":"m4","message":{"role":"toolResult","toolCallId":"t2","toolName":"read","content":[],"isError":true}}
{"type":"message","id":"m5","message":{"role":"assistant","content":[{"type":"text","text":"Neither exists."}],"stopReason":"stop"}}`,
			want:  []string{`{"messages":[{"role":"user","content":"Read a and b."},{"role":"assistant","tool_calls":[{"id":"t1","type":"function","function":{"name":"read","arguments":"{\"path\":\"a\"}"}},{"id":"t2","type":"function","function":{"name":"read","arguments":"{\"path\":\"b\"}"}}]},{"role":"tool","content":"{\"error\": \"no such file\"}","tool_call_id":"t1"},{"role":"tool","content":"","tool_call_id":"t2"},{"role":"assistant","content":"Neither exists."}],"tools":[{"type":"function","function":{"name":"read","parameters":{"properties":{},"type":"object"}}}]}`},
			notes: []string{"1: the conversation calls tools it does not define (read): each is written with a schema that takes any object"},
		},
		{
			name:   "chat without an error flag: an empty result is written as given (check reports it on the source too)",
			format: document.Chat,
			in:     `{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":""},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`,
			want:   []string{`{"messages":[{"role":"user","content":"A?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"","tool_call_id":"c1"},{"role":"assistant","content":"Done."}],"tools":[` + weatherTool + `]}`},
		},
		{
			name:   "codex: a custom tool's free-form input is written as {\"input\": TEXT}, its undefined tool with one string; a function call as given, its successful JSON output without a flag key not noted",
			format: document.Codex,
			in: `{"timestamp":"t","type":"session_meta","payload":{"id":"r-1","cwd":"/w"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"Add gamma."}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** End Patch","call_id":"c2"}}
{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a\",\"metadata\":{\"exit_code\":0}}"}}
{"timestamp":"t","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c2","output":"Done!"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Added."}]}}`,
			want: []string{`{"messages":[{"role":"user","content":"Add gamma."},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"shell","arguments":"{\"command\":[\"ls\"]}"}},{"id":"c2","type":"function","function":{"name":"apply_patch","arguments":"{\"input\":\"*** Begin Patch\\n*** End Patch\"}"}}]},{"role":"tool","content":"{\"output\":\"a\",\"metadata\":{\"exit_code\":0}}","tool_call_id":"c1"},{"role":"tool","content":"Done!","tool_call_id":"c2"},{"role":"assistant","content":"Added."}],"tools":[{"type":"function","function":{"name":"shell","parameters":{"properties":{},"type":"object"}}},{"type":"function","function":{"name":"apply_patch","parameters":{"properties":{"input":{"type":"string"}},"required":["input"],"type":"object"}}}]}`},
			notes: []string{
				`4: tool call 1 of message 1 (apply_patch) takes free-form text, which OpenAI function calls have not: written as the arguments {"input": TEXT}`,
				`1: the conversation calls tools it does not define (shell, apply_patch): each is written with a schema that takes any object (free-form apply_patch: an object with one string, "input")`,
			},
		},
		{
			name:   "proxy-log: the squashed session, request under request.body as check reads it",
			format: document.ProxyLog,
			in: `{"timestamp":"2026-01-01T00:00:00Z","session_id":"s","request":{"model":"m","messages":[{"role":"user","content":"Paris?"}],"tools":[` + weatherTool + `]},"response":{"id":"r1","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]}}]}}
{"timestamp":"2026-01-01T00:00:05Z","session_id":"s","request":{"body":{"model":"m","messages":[{"role":"user","content":"Paris?"},{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c1","content":"18 C"}],"tools":[` + weatherTool + `]}},"response":{"status":200,"body":{"id":"r2","choices":[{"index":0,"message":{"role":"assistant","content":"18 °C."}}]}}}`,
			want: []string{`{"messages":[{"role":"user","content":"Paris?"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{}"}}]},{"role":"tool","content":"18 C","tool_call_id":"c1"},{"role":"assistant","content":"18 °C."}],"tools":[` + weatherTool + `]}`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, tt.run)
	}
}

func decodeAll(t *testing.T, lines []string) []any {
	var out []any
	for _, l := range lines {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		out = append(out, v)
	}
	return out
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestContentParts(t *testing.T) {
	parts := []any{map[string]any{"type": "text", "text": "x"}}
	for name, raw := range map[string]any{
		"content":                       map[string]any{"content": parts},
		"Gemini parts":                  map[string]any{"parts": parts},
		"an entry wrapping the message": map[string]any{"type": "assistant", "message": map[string]any{"content": parts}},
	} {
		if diff := cmp.Diff(parts, contentParts(raw)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	if got := contentParts(map[string]any{"content": "text"}); got != nil {
		t.Errorf("string content: %v", got)
	}
}
