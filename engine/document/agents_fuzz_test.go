package document

import (
	"bytes"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// fuzzSession feeds the lines of data (the objects among them) to a
// session format's builder and checks what any document must hold: JSON,
// messages on lines that were fed, and Locate on every message and call.
func fuzzSession(t *testing.T, f Format, data []byte) {
	lines := map[int]bool{}
	b := NewBuilder(f, "fuzz.jsonl", Options{})
	for i, l := range bytes.Split(data, []byte("\n")) {
		v, err := astjson.Decode(l)
		if o, ok := v.(ast.Object); err == nil && ok {
			lines[i+1] = true
			b.Add(i+1, o)
		}
	}
	d := b.Finish()
	if len(lines) == 0 {
		if d != nil {
			t.Fatal("a document without records")
		}
		return
	}
	if d == nil || d.ID == "" {
		t.Fatalf("no document for %d records", len(lines))
	}
	if _, err := ast.JSON(d.Value); err != nil {
		t.Fatalf("document is not JSON: %v", err)
	}
	msgs := d.Messages()
	for i := 0; i < msgs.Len(); i++ {
		m := msgs.Elem(i).Value.(ast.Object)
		line, _, ok := d.Locate(TargetOf(i, -1, -1, -1))
		if !ok || !lines[line] {
			t.Fatalf("message %d on line %d, which was not fed", i, line)
		}
		calls := arrayField(m, KeyToolCalls)
		for j := 0; j < calls.Len(); j++ {
			if line, _, ok := d.Locate(TargetOf(i, j, -1, -1)); !ok || !lines[line] {
				t.Fatalf("call %d of message %d on line %d", j, i, line)
			}
		}
	}
	if n := d.Entries().Len(); n != len(lines) {
		t.Fatalf("%d entries for %d records", n, len(lines))
	}
}

func FuzzClaudeCode(f *testing.F) {
	for _, s := range []string{
		cc("u1", "", "user", `{"role":"user","content":"go"}`) + "\n" +
			cc("a1", "u1", "assistant", `{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t","name":"n","input":{}}]}`) + "\n" +
			cc("a2", "a1", "assistant", `{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"n","input":{}}]}`) + "\n" +
			cc("r1", "a1", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"x","is_error":1}]}`) + "\n" +
			cc("r2", "r1", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2"},"x"]}`),
		`{"type":"summary","summary":"s","leafUuid":"x"}` + "\n" + cc("a", "b", "user", `{}`) + "\n" + cc("b", "a", "assistant", `{"id":"m","content":null}`),
		cc("a", "a", "user", `{"role":"user","content":"loop"}`) + "\n" + cc("a", "", "user", `"x"`),
		cc("s", "", "user", `{"role":"user","content":"side"}`, "side") + "\n" + `{"type":"user","uuid":1,"parentUuid":[],"sessionId":{},"message":{"id":2}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzSession(t, ClaudeCode, data) })
}

func FuzzCodex(f *testing.F) {
	for _, s := range []string{
		`{"timestamp":"t","type":"session_meta","payload":{"id":"r"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"function_call","name":"f","arguments":"{}","call_id":"c"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"local_shell_call","call_id":"d","action":null}}` + "\n" +
			`{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":"Exit code: 99999999999999999999"}}`,
		`{"type":"response_item","payload":{"type":"message","role":"assistant","content":"x"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":null,"output":"{\"metadata\":{\"exit_code\":1.5}}"}}`,
		`{"type":"response_item","payload":{"type":"message","role":7}}` + "\n" + `{"type":"event_msg","payload":[]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzSession(t, Codex, data) })
}
