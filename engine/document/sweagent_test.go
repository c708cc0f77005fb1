package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A SWE-agent trajectory's history is its conversation: OpenAI tool_calls,
// a tool message answering the first of its tool_call_ids; trajectory,
// info and the per-message bookkeeping are named for convert.
func TestSWEAgentTrajectory(t *testing.T) {
	d := one(t, SWEAgent, Options{}, `{"environment":"e","trajectory":[{"action":"ls","observation":"a"}],"history":[`+
		`{"role":"system","content":"You are a programmer.","agent":"main"},`+
		`{"role":"user","content":[{"type":"text","text":"Fix it."}],"agent":"main","is_demo":true},`+
		`{"role":"assistant","content":"Listing.","thought":"Listing.","action":"ls","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},`+
		`{"role":"tool","content":"a","tool_call_ids":["c1","c9"]}],"info":{"exit_status":"submitted"}}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "tool_call_id", "path")
	want := js(t, `[
		{"index":0,"role":"system","text":"You are a programmer.","path":"/history/0"},
		{"index":1,"role":"user","text":"Fix it.","path":"/history/1"},
		{"index":2,"role":"assistant","text":"Listing.","path":"/history/2"},
		{"index":3,"role":"tool","text":"a","tool_call_id":"c1","path":"/history/3"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[2, "c1", "bash", "{\"command\":\"ls\"}", "/history/2/tool_calls/0", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 1, What: "SWE-agent members environment, history[].agent, history[].is_demo, history[].tool_call_ids beyond the first, info, trajectory"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
}

// A mini-swe-agent trajectory: its messages, the exit message read as the
// result of the submitting call it closes.
func TestMiniSWEAgentTrajectory(t *testing.T) {
	d := one(t, MiniSWEAgent, Options{}, `{"info":{"mini_version":"1.0"},"messages":[`+
		`{"role":"user","content":"Fix add."},`+
		`{"role":"assistant","content":"Submitting.","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}}],"function_call":null,"extra":{"actions":[]}},`+
		`{"role":"exit","content":"the diff","extra":{"exit_status":"Submitted"}}],"trajectory_format":"mini-swe-agent-1.1","instance_id":"x__y-1"}`)
	if d.ID != "x__y-1" {
		t.Errorf("id %q", d.ID)
	}
	got := project(list(t, d, "messages"), "role", "text", "tool_call_id", "path")
	want := js(t, `[
		{"role":"user","text":"Fix add.","path":"/messages/0"},
		{"role":"assistant","text":"Submitting.","path":"/messages/1"},
		{"role":"tool","text":"the diff","tool_call_id":"c1","path":"/messages/2"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 1, What: "mini-swe-agent members info, instance_id, messages[].extra, the exit message's extra (exit status, the submission again), trajectory_format"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}

}

func TestDetectTrajectories(t *testing.T) {
	for _, tc := range []struct {
		rec  string
		want Format
	}{
		{`{"history":[{"role":"system","content":"s"}],"trajectory":[],"info":{}}`, SWEAgent},
		{`{"history":[{"role":"system","content":"s"}]}`, SWEAgent},
		{`{"history":[],"trajectory":[]}`, SWEAgent},
		{`{"history":[]}`, ""},
		{`{"instruction":"q","output":"a","history":[["q0","a0"]]}`, Instruction}, // Alpaca with history, not a trajectory
		{`{"messages":[],"trajectory_format":"mini-swe-agent-1.1"}`, MiniSWEAgent},
		{`{"messages":[],"info":{"mini_version":"2.2.7"}}`, MiniSWEAgent},
		{`{"messages":[],"trajectory_format":"swe-agent"}`, Chat},
	} {
		if got, _ := Detect(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}
