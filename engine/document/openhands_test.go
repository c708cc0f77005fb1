package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An OpenHands event stream: the system action and its tools, a user
// message action, tool-calling actions of one model response joined in
// one assistant message (arguments from the response's own call), their
// observations as tool messages (an error observation flagged), and events
// without a tool call as entries only.
func TestOpenHandsEvents(t *testing.T) {
	resp := `"model_response":{"id":"r1","choices":[{"message":{"role":"assistant","content":"Two commands.","tool_calls":[{"id":"t1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}},{"id":"t2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"pwd\"}"}}]}}]}`
	d := one(t, OpenHands, Options{},
		`{"id":0,"source":"agent","action":"system","args":{"content":"Be useful.","tools":[{"type":"function","function":{"name":"bash"}}]}}`,
		`{"id":1,"source":"user","message":"List.","action":"message","args":{"content":"List."}}`,
		`{"id":2,"source":"environment","observation":"agent_state_changed","content":"","extras":{}}`,
		`{"id":3,"source":"agent","action":"run","args":{"command":"ls","thought":"x"},"tool_call_metadata":{"function_name":"bash","tool_call_id":"t1",`+resp+`}}`,
		`{"id":4,"source":"agent","action":"run","args":{"command":"pwd"},"tool_call_metadata":{"function_name":"bash","tool_call_id":"t2",`+resp+`}}`,
		`{"id":5,"source":"agent","cause":3,"observation":"run","content":"a b","tool_call_metadata":{"function_name":"bash","tool_call_id":"t1"}}`,
		`{"id":6,"source":"agent","cause":4,"observation":"error","content":"sandbox lost","tool_call_metadata":{"function_name":"bash","tool_call_id":"t2"}}`,
		`{"id":7,"source":"agent","message":"Done.","action":"message","args":{"content":"Done."}}`)
	got := project(list(t, d, "messages"), "role", "text", "tool_call_id", "is_error", "line", "lines")
	want := js(t, `[
		{"role":"system","text":"Be useful.","line":1},
		{"role":"user","text":"List.","line":2},
		{"role":"assistant","text":"Two commands.","line":4,"lines":[4,5]},
		{"role":"tool","text":"a b","tool_call_id":"t1","is_error":false,"line":6},
		{"role":"tool","text":"sandbox lost","tool_call_id":"t2","is_error":true,"line":7},
		{"role":"assistant","text":"Done.","line":8}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[2, "t1", "bash", "{\"command\":\"ls\"}", "/tool_call_metadata", null],
		[2, "t2", "bash", "{\"command\":\"pwd\"}", "/tool_call_metadata", null]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if n := len(list(t, d, "entries")); n != 8 {
		t.Errorf("%d entries, want 8", n)
	}
	if n := len(list(t, d, "tools")); n != 1 {
		t.Errorf("%d tools, want 1", n)
	}
	if got, _ := Detect(obj(t, `{"id":"x","source":"agent","action":"run"}`)); got != "" {
		t.Errorf("an event with a string id detected as %q", got)
	}
}

// A record that is no event of the stream, or no item of a Responses list,
// is a message without a role, for the rules to report, not an entry
// passed over.
func TestAgentRecordsThatDoNotFit(t *testing.T) {
	d := one(t, OpenHands, Options{},
		`{"id":0,"source":"user","action":"message","args":{"content":"hi"}}`,
		`{"foo":1}`)
	got := project(list(t, d, "messages"), "role", "line")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"role":"user","line":1},{"role":"","line":2}]`)), got); diff != "" {
		t.Errorf("openhands (-want +got):\n%s", diff)
	}
	r := one(t, OpenAIResponses, Options{}, `{"role":"user","content":"hi"}`, `{"foo":1}`)
	got = project(list(t, r, "messages"), "role", "line")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"role":"user","line":1},{"role":"","line":2}]`)), got); diff != "" {
		t.Errorf("openai-responses (-want +got):\n%s", diff)
	}
}
