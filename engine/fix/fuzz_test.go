package fix

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// FuzzApply: any record (or session) and any set of actions give valid
// records and rejects, or an error; never a panic.
func FuzzApply(f *testing.F) {
	chat := `{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"a","content":[1,{"x":null}]}]}`
	session := `{"type":"session","id":"s"}` + "\n" +
		`{"type":"message","id":"1","parentId":null,"message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"f","input":null}]}}` + "\n" +
		`{"type":"message","id":"2","parentId":"1","message":{"role":"toolResult","toolCallId":"a","content":"x"}}`
	proxy := `{"session_id":"p","request":{"messages":[{"role":"user","content":"q"}]},"response":{"choices":[{"message":{"role":"assistant","content":"a"}}]}}`
	seeds := []struct {
		format  uint8
		records string
		actions string
	}{
		{0, chat, `[{"op":"drop_message","target":"/messages/2"},{"op":"insert_message","target":"/messages/0","message":{"role":"system","content":"s"},"position":"before"}]`},
		{0, chat, `[{"op":"move_message","target":"/messages/0","after":2,"rank":1},{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/0","id":"b"}]`},
		{0, chat, `[{"op":"drop_tool_call","target":"/messages/1/tool_calls/0"},{"op":"set_content","target":"/messages/1","content":{"a":[1]}}]`},
		{2, session, `[{"op":"drop_entry","target":"/entries/0"},{"op":"insert_message","target":"/messages/1","message":{"role":"toolResult"}}]`},
		{2, session, `[{"op":"drop_tool_call","target":"/messages/0/tool_calls/0"},{"op":"move_message","target":"/messages/1","after":"/messages/0"}]`},
		{1, proxy, `[{"op":"insert_message","target":"/messages/0","message":{}},{"op":"drop_record"}]`},
		{3, chat, `[{"op":"move_message","target":"/messages/1","after":1}]`},
		{0, `{"messages":"x"}`, `[{"op":"drop_message","target":"/messages/0"}]`},
		{0, `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]},{"role":"user","content":[{"type":"text","text":"t"},{"type":"tool_result","tool_use_id":"b"}]},{"role":"user","content":"x"}]}`,
			`[{"op":"drop_message","target":"/messages/1"},{"op":"move_message","target":"/messages/3","after":0},{"op":"insert_message","target":"/messages/2","message":{"role":"user"}}]`},
	}
	sharegpt := `{"conversations":[{"from":"human","value":"q"},{"from":"function_call","value":"{\"name\":\"f\",\"arguments\":{}}"},{"from":"observation","value":"r"},{"from":"gpt","value":"<tool_call>{\"name\":\"g\"}</tool_call>"}],"system":"s"}`
	gemini := `{"contents":[{"role":"user","parts":[{"text":"q"}]},{"role":"model","parts":[{"functionCall":{"name":"f","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"f","response":{}}},{"text":"t"}]}]}`
	seeds = append(seeds, []struct {
		format  uint8
		records string
		actions string
	}{
		{4, sharegpt, `[{"op":"insert_message","target":"/messages/2","message":{"role":"tool","content":"x"}},{"op":"set_content","target":"/messages/1","content":"v"}]`},
		{4, sharegpt, `[{"op":"drop_tool_call","target":"/messages/2/tool_calls/0"},{"op":"rename_tool_call_id","target":"/messages/4/tool_calls/0","id":"n"}]`},
		{5, gemini, `[{"op":"rename_tool_call_id","target":"/messages/1/tool_calls/0","id":"n"},{"op":"drop_message","target":"/messages/2"},{"op":"insert_message","target":"/messages/0","message":{"role":"tool","name":"f"}}]`},
		{5, gemini, `[{"op":"drop_tool_call","target":"/messages/1/tool_calls/0"},{"op":"set_content","target":"/messages/3","content":[{"text":"u"}]}]`},
		{6, `{"custom_id":"r","body":{"messages":[{"role":"user","content":"q"},{"role":"tool","tool_call_id":"z"}]}}`, `[{"op":"move_message","target":"/messages/1","after":0}]`},
		{7, `{"custom_id":"r","response":{"body":{"choices":[{"message":{"role":"assistant","content":"a"}}]}}}`, `[{"op":"set_content","target":"/messages/0","content":"b"}]`},
		{9, `{"working_dir":"/","message_count":2}` + "\n" + `{"role":"assistant","content":[{"type":"toolRequest","id":"t","toolCall":{"value":{"name":"f","arguments":{}}}}]}` + "\n" + `{"role":"user","content":[{"type":"toolResponse","id":"t","toolResult":{"value":[]}},{"type":"text","text":"x"}]}`,
			`[{"op":"drop_message","target":"/messages/1"},{"op":"insert_message","target":"/messages/0","message":{"role":"user"}},{"op":"drop_tool_call","target":"/messages/0/tool_calls/0"}]`},
		{8, `{"custom_id":"r","params":{"system":"s","messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]}}`, `[{"op":"drop_message","target":"/messages/0"}]`},
	}...)
	for _, s := range seeds {
		f.Add(s.format, s.records, s.actions)
	}
	formats := []document.Format{document.Chat, document.ProxyLog, document.PiSession, document.Contract,
		document.ShareGPT, document.Gemini, document.OpenAIBatchInput, document.OpenAIBatchOutput, document.AnthropicBatch, document.GooseSession}
	f.Fuzz(func(t *testing.T, format uint8, records, actions string) {
		fm := formats[int(format)%len(formats)]
		var recs []jsonl.Record
		b := document.NewBuilder(fm, "f.jsonl", document.Options{})
		var doc *document.Document
		for i, line := range strings.Split(records, "\n") {
			v, err := astjson.Decode([]byte(line))
			obj, ok := v.(ast.Object)
			if err != nil || !ok {
				return
			}
			recs = append(recs, jsonl.Record{Line: i + 1, Data: []byte(line), End: "\n"})
			if d := b.Add(i+1, obj); d != nil {
				doc = d
			}
		}
		if d := b.Finish(); d != nil {
			doc = d
		}
		if doc == nil {
			return
		}
		var raw []map[string]any
		dec := json.NewDecoder(strings.NewReader(actions))
		dec.UseNumber()
		if dec.Decode(&raw) != nil {
			return
		}
		var acts []policy.Action
		for _, m := range raw {
			a := policy.Action{Rule: "fuzz", Args: map[string]any{}}
			for k, v := range m {
				switch k {
				case "op":
					a.Op, _ = v.(string)
				case "target":
					t, _ := v.(string)
					a.Target = document.Target(t)
				default:
					a.Args[k] = v
				}
			}
			acts = append(acts, a)
		}
		res, err := Apply(doc, recs, acts)
		if err != nil {
			return
		}
		for _, r := range res.Records {
			if !json.Valid(r.Data) {
				t.Fatalf("invalid record %q", r.Data)
			}
		}
		for _, r := range res.Rejects {
			if !json.Valid(r.Data) {
				t.Fatalf("invalid reject %q", r.Data)
			}
		}
	})
}
