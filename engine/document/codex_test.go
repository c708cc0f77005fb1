package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCodexMessages(t *testing.T) {
	item := func(payload string) string {
		return `{"timestamp":"t","type":"response_item","payload":` + payload + `}`
	}
	lines := []string{
		`{"timestamp":"t","type":"session_meta","payload":{"id":"r-1","cwd":"/w"}}`,
		`{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"go"}}`,
		item(`{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}`),
		item(`{"type":"reasoning","summary":[{"type":"summary_text","text":"plan"}]}`),
		item(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running two."}]}`),
		item(`{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"c1"}`),
		item(`{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch","call_id":"c2"}`),
		item(`{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a\\n\",\"metadata\":{\"exit_code\":0}}"}`),
		item(`{"type":"custom_tool_call_output","call_id":"c2","output":"Exit code: 2\nWall time: 0s\nOutput:\nfailed"}`),
		item(`{"type":"local_shell_call","call_id":"c3","status":"completed","action":{"type":"exec","command":["pwd"]}}`),
		item(`{"type":"function_call_output","call_id":"c3","output":"/w"}`),
		`{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"done"}}`,
		item(`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"done"}]}`),
		`{"timestamp":"t","type":"future_record","payload":{}}`,
	}
	d := one(t, Codex, Options{}, lines...)
	if d.ID != "r-1" {
		t.Errorf("id %q", d.ID)
	}
	m := docMap(t, d)
	want := js(t, `[
		{"index":0,"role":"user","line":3,"text":"go"},
		{"index":1,"role":"assistant","line":5,"lines":[5,6,7],"text":"Running two."},
		{"index":2,"role":"tool","line":8,"tool_call_id":"c1"},
		{"index":3,"role":"tool","line":9,"tool_call_id":"c2"},
		{"index":4,"role":"assistant","line":10,"text":""},
		{"index":5,"role":"tool","line":11,"tool_call_id":"c3","text":"/w"},
		{"index":6,"role":"assistant","line":13,"text":"done"}
	]`)
	got := project(m["messages"], "index", "role", "line", "lines", "tool_call_id", "is_error", "text")
	// The outputs' texts are long; compare them where the test names one.
	for i, g := range got {
		if _, ok := asMaps(t, want)[i]["text"]; !ok {
			delete(g, "text")
		}
	}
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		{"index":0,"id":"c1","name":"shell","arguments":"{\"command\":[\"ls\"]}","has_input":true,"path":"/payload","line":6},
		{"index":1,"id":"c2","name":"apply_patch","arguments":"*** Begin Patch","has_input":true,"free_form":true,"path":"/payload","line":7}
	]`)
	msgs := m["messages"].([]any)
	if diff := cmp.Diff(wantCalls, msgs[1].(map[string]any)["tool_calls"]); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	shell := js(t, `[{"index":0,"id":"c3","name":"local_shell","arguments":{"type":"exec","command":["pwd"]},"has_input":true,"path":"/payload"}]`)
	if diff := cmp.Diff(shell, msgs[4].(map[string]any)["tool_calls"]); diff != "" {
		t.Errorf("local shell call (-want +got):\n%s", diff)
	}
	if n := len(m["entries"].([]any)); n != len(lines) {
		t.Errorf("%d entries, want one per line (%d)", n, len(lines))
	}
	// The reasoning item is no message: named for convert to note.
	if diff := cmp.Diff([]Unmapped{{Line: 4, What: "Codex reasoning items"}}, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
	checkInvariants(t, "codex", d)
}

// A Codex output has no error flag: whether it failed is the integrity
// pack's decision (tool-result-flagged reads the exit code in its text or in
// the call's exec_command_end event), so the document carries no is_error.
func TestCodexOutputHasNoErrorFlag(t *testing.T) {
	for _, output := range []string{
		`"Exit code: 0\nOutput:\nok"`, `"Exit code: 127\nOutput:\nnot found"`,
		`"{\"output\":\"x\",\"metadata\":{\"exit_code\":1}}"`, `{"output":"x","exit_code":0}`,
	} {
		d := one(t, Codex, Options{}, `{"type":"response_item","payload":{"type":"function_call_output","call_id":"c","output":`+output+`}}`)
		msg := docMap(t, d)["messages"].([]any)[0].(map[string]any)
		if got, ok := msg["is_error"]; ok {
			t.Errorf("output %s: is_error %v, want none", output, got)
		}
	}
}
