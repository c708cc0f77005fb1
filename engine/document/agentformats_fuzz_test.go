package document

import (
	"bytes"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// fuzzFormat feeds the objects among data's lines to a builder of format f
// and checks what every document must hold, whatever the records: JSON, and
// every message and call located on a line that was fed.
func fuzzFormat(t *testing.T, f Format, data []byte) {
	lines := map[int]bool{}
	b := NewBuilder(f, "fuzz.jsonl", Options{})
	var docs []*Document
	for i, l := range bytes.Split(data, []byte("\n")) {
		v, err := astjson.Decode(l)
		if o, ok := v.(ast.Object); err == nil && ok {
			lines[i+1] = true
			if d := b.Add(i+1, o); d != nil {
				docs = append(docs, d)
			}
		}
	}
	if d := b.Finish(); d != nil {
		docs = append(docs, d)
	}
	for _, d := range docs {
		if _, err := ast.JSON(d.Value); err != nil {
			t.Fatalf("document is not JSON: %v", err)
		}
		msgs := d.Messages()
		for i := 0; i < msgs.Len(); i++ {
			if line, _, ok := d.Locate(TargetOf(i, -1, -1, -1)); !ok || !lines[line] {
				t.Fatalf("message %d on line %d, which was not fed", i, line)
			}
			calls := arrayField(msgs.Elem(i).Value.(ast.Object), KeyToolCalls)
			for j := 0; j < calls.Len(); j++ {
				if line, _, ok := d.Locate(TargetOf(i, j, -1, -1)); !ok || !lines[line] {
					t.Fatalf("call %d of message %d on line %d", j, i, line)
				}
			}
		}
	}
}

// The seeds are each format's shape with members of the wrong types.
func FuzzAgentFormats(f *testing.F) {
	seeds := map[Format][]string{
		GeminiCLI: {
			`{"sessionId":"s","projectHash":"h","messages":[{"id":"1","type":"gemini","content":[{"text":"x"}],"toolCalls":[{"id":"c","name":"n","args":null,"status":"error","result":[{"functionResponse":{"response":7}},3]}]},{"type":"user","parts":{}},5]}`,
			`{"sessionId":"s","projectHash":"h","startTime":"t"}` + "\n" + `{"$set":1}` + "\n" + `{"id":"g","type":"gemini","toolCalls":{}}` + "\n" + `{"id":"g","type":"gemini","toolCalls":[null]}`,
		},
		SWEAgent:     {`{"history":[{"role":"tool","content":"x","tool_call_ids":[1,2]},{"role":"assistant","tool_calls":[{"function":7}]},"x"]}`},
		MiniSWEAgent: {`{"trajectory_format":"mini-swe-agent-1","messages":[{"role":"assistant","tool_calls":[{"id":5}]},{"role":"exit","content":null},{"role":"exit"}]}`},
		OpenHands: {
			`{"id":0,"source":"agent","action":"system","args":{"tools":[1,{"function":[]}]}}` + "\n" +
				`{"id":1,"source":"agent","action":"run","args":[],"tool_call_metadata":{"tool_call_id":3,"model_response":{"id":"r","choices":[{"message":{"tool_calls":[{"id":3,"function":null}]}}]}}}` + "\n" +
				`{"id":2,"source":"agent","observation":"error","tool_call_metadata":{}}`,
		},
		OpenAIResponses: {
			`{"type":"function_call","call_id":"c","name":"n","arguments":"{}"}` + "\n" + `{"type":"function_call_output","output":[1]}` + "\n" + `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c"}]}` + "\n" + `{"type":"local_shell_call"}`,
		},
		AgentsRunState: {`{"$schemaVersion":"1","original_input":[1,{"id":2}],"generated_items":[{"type":"tool_approval_item"},{"raw_item":"x"},{"raw_item":{"type":"function_call","id":"y"}}]}`},
		LangChain: {
			`{"messages":[{"type":"ai","content":"","tool_calls":[{"args":null}],"invalid_tool_calls":[7]},{"lc":1,"type":"constructor","id":[]},{"type":"chat","content":"x","role":5}]}`,
			`{"inputs":{"messages":[[{"type":"human","content":"q"}],[]]},"outputs":{"generations":[[{"message":"x"}],[]],"output":{"type":"ai","content":"a"}}}`,
		},
		Cline: {`{"role":"user","content":[{"type":"tool_result","tool_use_id":7}],"ts":1}` + "\n" + `{"role":"assistant","content":[{"type":"tool_use","input":null}],"ts":2}`},
	}
	formats := []Format{GeminiCLI, SWEAgent, MiniSWEAgent, OpenHands, OpenAIResponses, AgentsRunState, LangChain, Cline}
	for i, fm := range formats {
		for _, s := range seeds[fm] {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fuzzFormat(t, formats[int(which)%len(formats)], data)
	})
}
