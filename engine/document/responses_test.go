package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Responses API items, one per line: messages (with or without a type),
// function calls joining the assistant turn before them, outputs as tool
// messages; reasoning and other items named for convert.
func TestOpenAIResponsesItems(t *testing.T) {
	d := one(t, OpenAIResponses, Options{},
		`{"role":"system","content":"Be brief."}`,
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"Weather?"}]}`,
		`{"type":"reasoning","id":"rs_1","summary":[]}`,
		`{"type":"function_call","call_id":"c1","name":"weather","arguments":"{}","id":"fc_1"}`,
		`{"type":"function_call","call_id":"c2","name":"time","arguments":"{}"}`,
		`{"type":"function_call_output","call_id":"c1","output":"sun"}`,
		`{"type":"function_call_output","call_id":"c2","output":"noon"}`,
		`{"type":"web_search_call","id":"ws_1","status":"completed"}`,
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Sunny at noon.","annotations":[]}]}`)
	got := project(list(t, d, "messages"), "role", "text", "tool_call_id", "line", "lines", "path")
	want := js(t, `[
		{"role":"system","text":"Be brief.","line":1,"path":""},
		{"role":"user","text":"Weather?","line":2,"path":""},
		{"role":"assistant","text":"","line":4,"lines":[4,5],"path":""},
		{"role":"tool","text":"sun","tool_call_id":"c1","line":6,"path":""},
		{"role":"tool","text":"noon","tool_call_id":"c2","line":7,"path":""},
		{"role":"assistant","text":"Sunny at noon.","line":9,"path":""}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[2, "c1", "weather", "{}", "", null], [2, "c2", "time", "{}", "", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 3, What: "Responses API members function_call.id, items of type web_search_call, reasoning items"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
}

// An Agents SDK RunState: the original input (a string is a user
// message), then each generated item's raw_item; a tool_approval_item
// repeats its call and an item the input already holds (same id) is not
// read twice.
func TestAgentsRunState(t *testing.T) {
	d := one(t, AgentsRunState, Options{}, `{"$schemaVersion":"1.13","original_input":[{"type":"message","id":"m0","role":"user","content":"Refund 5."},{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Checking."}]}],"generated_items":[`+
		`{"type":"message_output_item","raw_item":{"type":"message","id":"m1","role":"assistant","content":[{"type":"output_text","text":"Checking."}]}},`+
		`{"type":"tool_call_item","raw_item":{"type":"function_call","id":"f1","call_id":"c1","name":"refund","arguments":"{\"id\":5}"}},`+
		`{"type":"tool_approval_item","raw_item":{"type":"function_call","id":"f1","call_id":"c1","name":"refund","arguments":"{\"id\":5}"}}],`+
		`"model_responses":[],"current_step":{"type":"next_step_interruption"}}`)
	got := project(list(t, d, "messages"), "role", "text", "path")
	want := js(t, `[
		{"role":"user","text":"Refund 5.","path":"/original_input/0"},
		{"role":"assistant","text":"Checking.","path":"/original_input/1"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[1, "c1", "refund", "{\"id\":5}", "/generated_items/1/raw_item", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 1, What: "Agents SDK RunState members $schemaVersion, current_step, generated_items[] function_call.id, original_input[] message.id"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
	s := one(t, AgentsRunState, Options{}, `{"$schemaVersion":"1.0","original_input":"Hi.","generated_items":[]}`)
	if diff := cmp.Diff(asMaps(t, js(t, `[{"role":"user","text":"Hi.","path":"/original_input"}]`)), project(list(t, s, "messages"), "role", "text", "path")); diff != "" {
		t.Errorf("string input (-want +got):\n%s", diff)
	}
}

func TestDetectResponsesAndRunState(t *testing.T) {
	for _, tc := range []struct {
		rec  string
		want Format
	}{
		{`{"type":"message","role":"user","content":"hi"}`, OpenAIResponses},
		{`{"type":"function_call","call_id":"c","name":"f","arguments":"{}"}`, OpenAIResponses},
		{`{"type":"function_call","call_id":"c","arguments":"{}"}`, ""},
		{`{"type":"function_call_output","call_id":"c","output":"x"}`, OpenAIResponses},
		{`{"type":"reasoning","id":"r","summary":[]}`, OpenAIResponses},
		{`{"role":"system","content":"s"}`, OpenAIResponses},
		{`{"role":"user","content":"s","created":1}`, ""},
		{`{"role":"human","content":"s"}`, ""},
		{`{"role":"user","content":"s","extra":{}}`, ""},
		{`{"$schemaVersion":"1.13","original_input":"x","generated_items":[],"conversation_id":null}`, AgentsRunState},
		{`{"$schemaVersion":"1.13","generated_items":[]}`, ""},
	} {
		if got, _ := Detect(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}
