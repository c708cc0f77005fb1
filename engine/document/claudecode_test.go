package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cc is one Claude Code entry line.
func cc(uuid, parent, typ, message string, extra ...string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	side := "false"
	for _, e := range extra {
		if e == "side" {
			side = "true"
		}
	}
	s := `{"parentUuid":` + p + `,"isSidechain":` + side + `,"sessionId":"s-1","type":"` + typ + `","uuid":"` + uuid + `"`
	if message != "" {
		s += `,"message":` + message
	}
	return s + `}`
}

func TestClaudeCodeMessages(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		// want projects index, role, line, tool_call_id, is_error, lines.
		want string
		// calls are the [id, line, path] of every call, in message order.
		calls string
		// onChain lists the entries' on_chain flags.
		onChain []bool
	}{
		{
			name: "split message, parallel results under their calls, snapshot, progress and sidechain apart",
			lines: []string{
				`{"type":"file-history-snapshot","messageId":"u1","snapshot":{},"isSnapshotUpdate":false}`,
				cc("u1", "", "user", `{"role":"user","content":"go"}`),
				cc("a1", "u1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}`),
				cc("a2", "a1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}`),
				cc("a3", "a2", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t2","name":"Read","input":{}}],"stop_reason":"tool_use"}`),
				cc("p1", "a3", "progress", ""),
				cc("r1", "a2", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x","is_error":true}]}`),
				cc("r2", "a3", "user", `{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"y","is_error":false}]}`),
				cc("a4", "r2", "assistant", `{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]}`),
				cc("s1", "", "user", `{"role":"user","content":"sub"}`, "side"),
				cc("s2", "s1", "assistant", `{"id":"m3","role":"assistant","content":[{"type":"text","text":"sub done"}]}`, "side"),
			},
			want: `[
				{"index":0,"role":"user","line":2},
				{"index":1,"role":"assistant","line":3,"lines":[3,4,5],"stop_reason":"tool_use"},
				{"index":2,"role":"tool","line":7,"tool_call_id":"t1","is_error":true},
				{"index":3,"role":"tool","line":8,"tool_call_id":"t2","is_error":false},
				{"index":4,"role":"assistant","line":9}
			]`,
			calls:   `[["t1",4,"/message/content/0"],["t2",5,"/message/content/0"]]`,
			onChain: []bool{false, true, true, true, true, false, true, true, true, false, false},
		},
		{
			name: "an abandoned branch is left out; the resumed one is read",
			lines: []string{
				cc("u1", "", "user", `{"role":"user","content":"go"}`),
				cc("a1", "u1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"text","text":"first try"}]}`),
				cc("a2", "u1", "assistant", `{"id":"m2","role":"assistant","content":[{"type":"text","text":"second try"}]}`),
			},
			want:    `[{"index":0,"role":"user","line":1},{"index":1,"role":"assistant","line":3}]`,
			calls:   `[]`,
			onChain: []bool{true, false, true},
		},
		{
			name: "entries without links are read in file order; a summary is carried along",
			lines: []string{
				`{"type":"summary","summary":"s","leafUuid":"a1"}`,
				cc("u1", "", "user", `{"role":"user","content":"go"}`),
				cc("a1", "", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}`),
				cc("u2", "", "user", `{"role":"user","content":"again"}`),
			},
			want:    `[{"index":0,"role":"user","line":2},{"index":1,"role":"assistant","line":3},{"index":2,"role":"user","line":4}]`,
			calls:   `[]`,
			onChain: []bool{false, true, true, true},
		},
		{
			name: "a cut chain is read across the cut",
			lines: []string{
				cc("u1", "", "user", `{"role":"user","content":"go"}`),
				cc("a1", "gone", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}`),
			},
			want:    `[{"index":0,"role":"user","line":1},{"index":1,"role":"assistant","line":2}]`,
			calls:   `[]`,
			onChain: []bool{true, true},
		},
		{
			name: "a subagent's file (every entry a sidechain) is its own conversation",
			lines: []string{
				cc("s1", "", "user", `{"role":"user","content":"sub"}`, "side"),
				cc("s2", "s1", "assistant", `{"id":"m3","role":"assistant","content":[{"type":"text","text":"sub done"}]}`, "side"),
			},
			want:    `[{"index":0,"role":"user","line":1},{"index":1,"role":"assistant","line":2}]`,
			calls:   `[]`,
			onChain: []bool{true, true},
		},
		{
			name: "broken entries are entries, not messages",
			lines: []string{
				cc("u1", "", "user", `"error"`),
				`{"silly":"this"}`,
				cc("u2", "u1", "user", `{"role":"user","content":["bare"]}`),
			},
			want:    `[{"index":0,"role":"user","line":3}]`,
			calls:   `[]`,
			onChain: []bool{true, false, true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, ClaudeCode, Options{}, tc.lines...)
			if d.ID != "s-1" && !strings.Contains(tc.name, "broken") {
				t.Errorf("id %q", d.ID)
			}
			m := docMap(t, d)
			got := project(m["messages"], "index", "role", "line", "tool_call_id", "is_error", "lines", "stop_reason")
			if diff := cmp.Diff(asMaps(t, js(t, tc.want)), got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			var calls []any
			for _, x := range m["messages"].([]any) {
				msg := x.(map[string]any)
				for _, c := range msg["tool_calls"].([]any) {
					c := c.(map[string]any)
					line, ok := c["line"]
					if !ok {
						line = msg["line"]
					}
					calls = append(calls, []any{c["id"], line, c["path"]})
				}
			}
			if calls == nil {
				calls = []any{}
			}
			if diff := cmp.Diff(js(t, tc.calls), calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
			var onChain []bool
			for _, e := range m["entries"].([]any) {
				onChain = append(onChain, e.(map[string]any)["on_chain"].(bool))
			}
			if diff := cmp.Diff(tc.onChain, onChain); diff != "" {
				t.Errorf("on_chain (-want +got):\n%s", diff)
			}
			checkInvariants(t, tc.name, d)
		})
	}
}

// A finding on a call of a message written over several lines names the
// call's own line.
func TestClaudeCodeLocateCall(t *testing.T) {
	d := one(t, ClaudeCode, Options{},
		cc("a1", "", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"text","text":"ok"}]}`),
		cc("a2", "a1", "assistant", `{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}`),
	)
	line, path, ok := d.Locate(TargetOf(0, 0, -1, -1))
	if !ok || line != 2 || path != "/message/content/0" {
		t.Errorf("Locate = %d, %q, %v; want 2, /message/content/0", line, path, ok)
	}
	if line, _, _ := d.Locate(TargetOf(0, -1, -1, -1)); line != 1 {
		t.Errorf("message line %d, want 1", line)
	}
}
