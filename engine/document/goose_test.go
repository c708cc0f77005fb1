package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A goose legacy session: the metadata line is raw; toolRequest parts are
// calls, each toolResponse part a tool message of its own; entries carry
// created as their timestamp.
func TestGooseSession(t *testing.T) {
	d := one(t, GooseSession, Options{},
		`{"working_dir":"/w","description":"d","message_count":4}`,
		`{"role":"user","created":1,"content":[{"type":"text","text":"List files."}]}`,
		`{"role":"assistant","created":2,"content":[{"type":"text","text":"Sure."},{"type":"toolRequest","id":"t1","toolCall":{"status":"success","value":{"name":"shell","arguments":{"command":"ls"}}}},{"type":"toolRequest","id":"t2","toolCall":{"status":"error","error":"bad json"}}]}`,
		`{"role":"user","created":3,"content":[{"type":"toolResponse","id":"t1","toolResult":{"status":"success","value":[{"type":"text","text":"a b"}]}},{"type":"toolResponse","id":"t2","toolResult":{"status":"error","error":"could not parse"}},{"type":"text","text":"thanks"}]}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "tool_call_id", "turn", "line", "path")
	want := js(t, `[
		{"index":0,"role":"user","text":"List files.","turn":-1,"line":2,"path":""},
		{"index":1,"role":"assistant","text":"Sure.","turn":1,"line":3,"path":""},
		{"index":2,"role":"tool","text":"a b","tool_call_id":"t1","turn":1,"line":4,"path":"/content/0"},
		{"index":3,"role":"tool","text":"could not parse","tool_call_id":"t2","turn":1,"line":4,"path":"/content/1"},
		{"index":4,"role":"user","text":"thanks","turn":1,"line":4,"path":""}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[1, "t1", "shell", {"command": "ls"}, "/content/1", null],
		[1, "t2", "", null, "/content/2", "tool request status error"]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	entries := project(list(t, d, "entries"), "index", "line", "timestamp")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"index":0,"line":2,"timestamp":1},{"index":1,"line":3,"timestamp":2},{"index":2,"line":4,"timestamp":3}]`)), entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if raw := docMap(t, d)["raw"].(map[string]any); raw["working_dir"] != "/w" {
		t.Errorf("raw %v", raw)
	}
}
