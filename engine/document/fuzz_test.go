package document

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

var fuzzRecords = []string{
	`[{"role":"assistant","content":"<tool_call>{}</tool_call>","tool_calls":[{"function":{"name":"f","arguments":null}}]},{"role":"tool","content":"<tool_result tool_call_id=\"a\">"}]`,
	`[{"message":{"role":"user","content":[{"type":"text","text":"x"}]}}]`,
	`{"messages":[{"role":"user","content":"q"},{"role":"assistant","content":"a","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{}"}}]},{"role":"tool","tool_call_id":"c","content":"r"}],"tools":[{"type":"function","function":{"name":"f"}}]}`,
	`{"messages":[{"role":"assistant","content":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call><tool_call>[1]</tool_call><tool_call>"},{"role":"tool","content":"<tool_result tool_call_id=\"x\">r"}]}`,
	`{"messages":[{"role":"assistant","content":[{"type":"text","text":"t"},{"type":"toolCall","id":"a","name":"n","arguments":null},{"type":"tool_use","input":{}}]},{"role":"toolResult","toolCallId":"a"}]}`,
	`{"conversation_id":"c","user_id":"u","messages":["x",null,{"role":1,"content":{"a":1}}],"tools":["s",{"function":"f"}]}`,
	`{"session_id":"s","timestamp":1,"request":{"messages":[{"role":"developer"},{"role":"assistant","content":"","tool_calls":[{}]}],"tools":[{"name":"a"},{"name":"a"}]},"response":{"choices":[{"message":{"role":"assistant","content":"r"}}]}}`,
	`{"request":{"body":{"messages":[]}},"response":{"body":{"choices":[{"message":{}}]}}}`,
	`{"type":"session","id":"s"}`,
	`{"type":"message","message":{"role":"assistant","content":[{"type":"functionCall","id":1,"name":2}]}}`,
	`{"type":"message","message":"error"}`,
	`{}`,
	`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}}],"stop_reason":"tool_use"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}]},"x",{"type":"tool_result"}]}],"tools":[{"name":"n","input_schema":{"type":"object"}},{"name":"m","parameters":1}]}`,
	`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":7,"content":null}]}],"stopReason":"aborted"}`,
	`{"system":"s","tools":"[{\"name\":\"f\"},1]","conversations":[{"from":"human","value":"q"},{"from":"function_call","value":"[{\"name\":\"f\",\"arguments\":{}},3]"},{"from":"observation","value":"r"},{"from":"tool","value":null},{"from":"gpt","value":"<tool_call>{}</tool_call>"},{"role":"user","content":[1]},7]}`,
	`{"conversations":[{"from":"function_call","value":{"name":1}},{"from":"function_call"},{"from":"function_call","value":"[}"}],"tools":"{"}`,
	`{"systemInstruction":"s","contents":[{"role":"model","parts":[{"functionCall":null},{"function_call":{"name":"f","args":null,"id":3}},{"text":1}]},{"role":"function","parts":[{"functionResponse":{"id":"x"}},{"inline_data":{}}]},{"role":"user"},5],"tools":[{"functionDeclarations":[{"name":"f"},2]},{"function_declarations":"x"},null]}`,
	`{"key":"k","request":{"system_instruction":{"parts":"x"},"contents":[{"role":"user","parts":[{"function_response":{"name":"f","response":null}}]}]}}`,
	`{"custom_id":"r","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"user","content":"q"}],"tools":[1]}}`,
	`{"custom_id":1,"response":{"status_code":500,"body":{"choices":[{"message":"x"}]}},"error":{"message":"m"}}`,
	`{"custom_id":"r","params":{"system":[{"type":"text","text":"s"},3],"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}],"tools":{}}}`,
	`{"custom_id":"r","result":{"type":"succeeded","message":{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}}}`,
	`{"type":"user","uuid":"u","parentUuid":null,"sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","is_error":true}]}}`,
	`{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}}`,
}

// FuzzAdapters feeds arbitrary records to every format's builder: Add, Finish
// and Locate with indexes taken from the input must never panic.
func FuzzAdapters(f *testing.F) {
	for i, r := range fuzzRecords {
		f.Add([]byte(r), []byte(fuzzRecords[(i+1)%len(fuzzRecords)]), int16(i%3), int16(1), int16(i%2), int16(0))
	}
	f.Fuzz(func(t *testing.T, first, second []byte, msg, call, tool, entry int16) {
		var recs []ast.Object
		for _, data := range [][]byte{first, second} {
			v, err := astjson.Decode(data)
			if err != nil {
				continue
			}
			if o, ok := v.(ast.Object); ok {
				recs = append(recs, o)
				continue
			}
			// Any other JSON value goes where the adapters look for
			// messages, so that random shapes reach them.
			val := ast.NewTerm(v)
			recs = append(recs,
				ast.NewObject(ast.Item(ast.StringTerm("messages"), val), ast.Item(ast.StringTerm("tools"), val)),
				ast.NewObject(ast.Item(ast.StringTerm("type"), ast.StringTerm("message")), ast.Item(ast.StringTerm("message"), val)),
				ast.NewObject(
					ast.Item(ast.StringTerm("request"), ast.ObjectTerm(ast.Item(ast.StringTerm("messages"), val), ast.Item(ast.StringTerm("tools"), val))),
					ast.Item(ast.StringTerm("response"), ast.ObjectTerm(ast.Item(ast.StringTerm("choices"), val)))),
			)
			recs = append(recs, formatShapes(val)...)
		}
		if len(recs) == 0 {
			return
		}
		Detect(recs[0])
		Keys(recs[0])
		for _, a := range Adapters() {
			a.Misfit(recs[0])
		}
		for _, format := range Formats {
			for _, opts := range []Options{{}, {ToolCalls: modeInline}, {ToolCalls: modeStructured}} {
				b := NewBuilder(format, "fuzz.jsonl", opts)
				var docs []*Document
				for i, r := range recs {
					if d := b.Add(i+1, r); d != nil {
						docs = append(docs, d)
					}
				}
				if d := b.Finish(); d != nil {
					docs = append(docs, d)
				}
				if len(docs) == 0 {
					t.Fatalf("%s: no document for %d records", format, len(recs))
				}
				for _, d := range docs {
					if d.Value == nil || d.ID == "" {
						t.Fatalf("%s: document %+v", format, *d)
					}
					if _, err := ast.JSON(d.Value); err != nil {
						t.Fatalf("%s: document is not JSON: %v", format, err)
					}
					for _, idx := range [][4]int{
						{int(msg), int(call), int(tool), int(entry)},
						{int(msg), -1, -1, -1},
						{-1, -1, int(tool), -1},
						{-1, -1, -1, int(entry)},
						{0, 0, 0, 0},
						{-1, -1, -1, -1},
					} {
						line, _, _ := d.Locate(TargetOf(idx[0], idx[1], idx[2], idx[3]))
						if line < 1 {
							t.Fatalf("%s: Locate%v line %d", format, idx, line)
						}
					}
				}
			}
		}
	})
}

// formatShapes puts a value everywhere the ShareGPT, Gemini and batch
// adapters look, so that random shapes reach them too.
func formatShapes(val *ast.Term) []ast.Object {
	obj := func(kv ...any) *ast.Term {
		o := ast.NewObject()
		for i := 0; i < len(kv); i += 2 {
			o.Insert(ast.StringTerm(kv[i].(string)), kv[i+1].(*ast.Term))
		}
		return ast.NewTerm(o)
	}
	arr := func(ts ...*ast.Term) *ast.Term { return ast.ArrayTerm(ts...) }
	str := ast.StringTerm
	shapes := []*ast.Term{
		obj("conversations", val, "tools", val, "system", val),
		obj("conversations", arr(obj("from", str("function_call"), "value", val), obj("from", str("observation"), "value", val))),
		obj("conversations", arr(obj("from", str("gpt"), "value", val), obj("from", str("tool"), "value", val))),
		obj("contents", val, "systemInstruction", val, "tools", val),
		obj("contents", arr(obj("role", str("model"), "parts", val), obj("role", str("user"), "parts", val))),
		obj("contents", arr(obj("role", str("model"), "parts", arr(obj("functionCall", val))), obj("role", str("user"), "parts", arr(obj("functionResponse", val))))),
		obj("tools", arr(obj("functionDeclarations", val)), "contents", arr()),
		obj("request", obj("contents", val, "system_instruction", val)),
		obj("custom_id", val, "body", obj("messages", val, "tools", val)),
		obj("custom_id", str("r"), "response", obj("body", obj("choices", val)), "error", val),
		obj("custom_id", str("r"), "params", obj("messages", val, "system", val, "tools", val)),
		obj("custom_id", str("r"), "result", obj("type", val, "message", val)),
	}
	out := make([]ast.Object, len(shapes))
	for i, s := range shapes {
		out[i] = s.Value.(ast.Object)
	}
	return out
}
