package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// An Anthropic Messages record: tool_use blocks answered by tool_result
// blocks in the next user message become tool messages of their own.
func TestAnthropicToolResults(t *testing.T) {
	d := one(t, Chat, Options{}, `{"system":"s","messages":[`+
		`{"role":"user","content":"weather?"},`+
		`{"role":"assistant","content":[{"type":"text","text":"Checking."},{"type":"tool_use","id":"tu1","name":"get_weather","input":{"city":"Paris"}},{"type":"tool_use","id":"tu2","name":"get_time","input":{}}],"stop_reason":"tool_use"},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":"18C"},{"type":"tool_result","tool_use_id":"tu2","content":[{"type":"text","text":"noon"}],"is_error":false},{"type":"text","text":"and tomorrow?"}]},`+
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu3"}]}]}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "has_content", "tool_call_id", "turn", "path", "stop_reason")
	want := js(t, `[
		{"index":0,"role":"user","text":"weather?","has_content":true,"turn":-1,"path":"/messages/0"},
		{"index":1,"role":"assistant","text":"Checking.","has_content":true,"turn":1,"path":"/messages/1","stop_reason":"tool_use"},
		{"index":2,"role":"tool","text":"18C","has_content":true,"tool_call_id":"tu1","turn":1,"path":"/messages/2/content/0"},
		{"index":3,"role":"tool","text":"noon","has_content":true,"tool_call_id":"tu2","turn":1,"path":"/messages/2/content/1"},
		{"index":4,"role":"user","text":"and tomorrow?","has_content":true,"turn":1,"path":"/messages/2"},
		{"index":5,"role":"tool","text":"","has_content":false,"tool_call_id":"tu3","turn":1,"path":"/messages/3/content/0"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	raw := list(t, d, "messages")[2].(map[string]any)["raw"]
	if diff := cmp.Diff(js(t, `{"type":"tool_result","tool_use_id":"tu1","content":"18C"}`), raw); diff != "" {
		t.Errorf("a tool result's raw is its block (-want +got):\n%s", diff)
	}
}

// stop_reason (Anthropic) and stopReason (pi transcripts) are normalized
// when they are strings.
func TestStopReason(t *testing.T) {
	d := one(t, PiSession, Options{},
		`{"type":"session","id":"s"}`,
		`{"type":"message","message":{"role":"assistant","content":[],"stopReason":"aborted"}}`,
		`{"type":"message","message":{"role":"assistant","content":"x","stopReason":7}}`)
	got := project(list(t, d, "messages"), "index", "stop_reason")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"index":0,"stop_reason":"aborted"},{"index":1}]`)), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestProfile(t *testing.T) {
	for _, tc := range []struct{ opt, want string }{{"", "default"}, {"export", "export"}} {
		d := one(t, Chat, Options{Profile: tc.opt}, `{"messages":[]}`)
		if got := docMap(t, d)["profile"]; got != tc.want {
			t.Errorf("Profile %q: profile = %v, want %s", tc.opt, got, tc.want)
		}
	}
}

// A tool_result block without tool_use_id answers nothing: the user message
// stays whole.
func TestAnthropicResultWithoutID(t *testing.T) {
	d := one(t, Chat, Options{}, `{"messages":[{"role":"user","content":[{"type":"tool_result","content":"r"}]}]}`)
	got := project(list(t, d, "messages"), "role", "path")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"role":"user","path":"/messages/0"}]`)), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
