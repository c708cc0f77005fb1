package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A Cline task history: one conversation of Anthropic messages, tool_use
// blocks as calls, each tool_result block a tool message before the rest
// of its user message, ts the entries' timestamps.
func TestClineHistory(t *testing.T) {
	d := one(t, Cline, Options{},
		`{"role":"user","content":[{"type":"text","text":"<task>Read a.</task>"}],"ts":10}`,
		`{"role":"assistant","content":[{"type":"text","text":"Reading."},{"type":"tool_use","id":"t1","name":"read_file","input":{"path":"a"}}],"ts":11}`,
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"A","is_error":false},{"type":"text","text":"<environment_details/>"}],"ts":12}`)
	got := project(list(t, d, "messages"), "role", "text", "tool_call_id", "is_error", "line", "path")
	want := js(t, `[
		{"role":"user","text":"<task>Read a.</task>","line":1,"path":""},
		{"role":"assistant","text":"Reading.","line":2,"path":""},
		{"role":"tool","text":"A","tool_call_id":"t1","is_error":false,"line":3,"path":"/content/0"},
		{"role":"user","text":"<environment_details/>","line":3,"path":""}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[1, "t1", "read_file", {"path": "a"}, "/content/1", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	entries := project(list(t, d, "entries"), "line", "timestamp")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"line":1,"timestamp":10},{"line":2,"timestamp":11},{"line":3,"timestamp":12}]`)), entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		rec  string
		want Format
	}{
		{`{"role":"user","content":"hi","ts":1767603120511}`, Cline},
		{`{"role":"user","content":"hi","ts":"t"}`, ""},
		{`{"role":"tool","content":"hi","ts":1}`, ""},
		{`{"role":"user","content":[{"type":"text","text":"hi"}]}`, OpenAIResponses},
	} {
		if got, _ := Detect(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}
