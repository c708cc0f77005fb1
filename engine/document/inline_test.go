package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMode(t *testing.T) {
	tests := []struct {
		name     string
		messages string
		forced   string
		want     string
	}{
		{"plain", `[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]`, "", "structured"},
		{"no messages", `[]`, "", "structured"},
		{"structured calls", `[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f"}}]},{"role":"tool","tool_call_id":"a","content":"r"}]`, "", "structured"},
		{"assistant text with a tool_call tag", `[{"role":"assistant","content":"ok <tool_call>{\"name\":\"f\"}</tool_call>"}]`, "", "inline"},
		{"tag in a content part", `[{"role":"assistant","content":[{"type":"text","text":"<tool_call>{}"}]}]`, "", "inline"},
		{"tool text starting with tool_result", `[{"role":"tool","content":"<tool_result>x</tool_result>"}]`, "", "inline"},
		{"tool_result with attributes", `[{"role":"tool","content":"<tool_result tool_call_id=\"a\">x</tool_result>"}]`, "", "inline"},
		{"tool_result not at the start", `[{"role":"tool","content":" <tool_result>x</tool_result>"}]`, "", "structured"},
		{"tool_call tag in user text", `[{"role":"user","content":"what is <tool_call>?"}]`, "", "structured"},
		{"tool_call tag in system text", `[{"role":"system","content":"Use <tool_call>{...}</tool_call>"}]`, "", "structured"},
		{"tool_result in assistant text", `[{"role":"assistant","content":"<tool_result>"}]`, "", "structured"},
		{"toolResult role counts as tool", `[{"role":"toolResult","content":"<tool_result>x"}]`, "", "inline"},
		{"forced inline", `[{"role":"assistant","content":"hello"}]`, "inline", "inline"},
		{"forced structured", `[{"role":"assistant","content":"<tool_call>{\"name\":\"f\"}</tool_call>"}]`, "structured", "structured"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, Chat, Options{ToolCalls: tc.forced}, `{"messages":`+tc.messages+`}`)
			if got := docMap(t, d)["mode"]; got != tc.want {
				t.Errorf("mode = %v, want %s", got, tc.want)
			}
		})
	}
}

// TestForcedModeChoosesTheCalls checks that the mode decides which
// representation is read: structured calls are not read in inline mode and
// tags are not parsed in structured mode.
func TestForcedModeChoosesTheCalls(t *testing.T) {
	rec := `{"messages":[{"role":"assistant","content":"<tool_call>{\"name\":\"tag\"}</tool_call>","tool_calls":[{"id":"s","function":{"name":"structured","arguments":"{}"}}]}]}`
	tests := []struct {
		forced string
		want   string
	}{
		{"", `[{"index":0,"id":"inline-0-0","name":"tag","has_input":false,"path":"/messages/0/content"}]`},
		{"inline", `[{"index":0,"id":"inline-0-0","name":"tag","has_input":false,"path":"/messages/0/content"}]`},
		{"structured", `[{"index":0,"id":"s","name":"structured","arguments":"{}","has_input":true,"path":"/messages/0/tool_calls/0"}]`},
	}
	for _, tc := range tests {
		d := one(t, Chat, Options{ToolCalls: tc.forced}, rec)
		got := list(t, d, "messages")[0].(map[string]any)["tool_calls"]
		if diff := cmp.Diff(js(t, tc.want), got); diff != "" {
			t.Errorf("forced %q: tool_calls (-want +got):\n%s", tc.forced, diff)
		}
	}
}

// TestInlineCalls checks the parsing of <tool_call> payloads and the ids of
// <tool_result> tags.
func TestInlineCalls(t *testing.T) {
	tests := []struct {
		name      string
		messages  string
		wantCalls map[int]string // message index -> its tool_calls; others must have none
		wantIDs   map[int]string // message index -> tool_call_id; others must have none
	}{
		{
			name: "call with the id of the positional result",
			messages: `[{"role":"user","content":"q"},
				{"role":"assistant","content":"Let me check.\n<tool_call>\n{\"name\": \"get\", \"arguments\": {\"x\": 1}}\n</tool_call>"},
				{"role":"tool","content":"<tool_result tool_call_id=\"call_9\">42</tool_result>"},
				{"role":"assistant","content":"42"}]`,
			wantCalls: map[int]string{
				1: `[{"index":0,"id":"call_9","name":"get","arguments":{"x":1},"has_input":true,"path":"/messages/1/content"}]`,
			},
			wantIDs: map[int]string{2: "call_9"},
		},
		{
			name: "no result: inline-M-K",
			messages: `[{"role":"system","content":"s"},{"role":"user","content":"q"},
				{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call><tool_call>{\"arguments\":{\"k\":2},\"name\":\"b\"}</tool_call>"}]`,
			wantCalls: map[int]string{
				2: `[{"index":0,"id":"inline-2-0","name":"a","arguments":{},"has_input":true,"path":"/messages/2/content"},
					{"index":1,"id":"inline-2-1","name":"b","arguments":{"k":2},"has_input":true,"path":"/messages/2/content"}]`,
			},
		},
		{
			name: "results without ids, and more calls than results",
			messages: `[{"role":"assistant","content":"<tool_call>{\"name\":\"a\"}</tool_call><tool_call>{\"name\":\"b\"}</tool_call><tool_call>{\"name\":\"c\"}</tool_call>"},
				{"role":"tool","content":"<tool_result>r1</tool_result>"},
				{"role":"tool","content":"<tool_result tool_call_id=\"id_b\">r2</tool_result>"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"inline-0-0","name":"a","has_input":false,"path":"/messages/0/content"},
					{"index":1,"id":"id_b","name":"b","has_input":false,"path":"/messages/0/content"},
					{"index":2,"id":"inline-0-2","name":"c","has_input":false,"path":"/messages/0/content"}]`,
			},
			wantIDs: map[int]string{2: "id_b"},
		},
		{
			name: "payload id wins over the result's",
			messages: `[{"role":"assistant","content":"<tool_call>{\"id\":\"own\",\"name\":\"a\",\"arguments\":null}</tool_call>"},
				{"role":"tool","content":"<tool_result tool_call_id=\"other\">r</tool_result>"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"own","name":"a","arguments":null,"has_input":false,"path":"/messages/0/content"}]`,
			},
			wantIDs: map[int]string{1: "other"},
		},
		{
			name: "results of each block stay in their block",
			messages: `[{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":{}}</tool_call>"},
				{"role":"tool","content":"<tool_result tool_call_id=\"r_a\">1</tool_result>"},
				{"role":"user","content":"more"},
				{"role":"assistant","content":"<tool_call>{\"name\":\"b\",\"arguments\":{}}</tool_call>"},
				{"role":"tool","content":"<tool_result tool_call_id=\"r_b\">2</tool_result>"},
				{"role":"assistant","content":"<tool_call>{\"name\":\"c\",\"arguments\":{}}</tool_call>"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"r_a","name":"a","arguments":{},"has_input":true,"path":"/messages/0/content"}]`,
				3: `[{"index":0,"id":"r_b","name":"b","arguments":{},"has_input":true,"path":"/messages/3/content"}]`,
				5: `[{"index":0,"id":"inline-5-0","name":"c","arguments":{},"has_input":true,"path":"/messages/5/content"}]`,
			},
			wantIDs: map[int]string{1: "r_a", 4: "r_b"},
		},
		{
			name: "structured tool_call_id used as the result id",
			messages: `[{"role":"assistant","content":"<tool_call>{\"name\":\"a\",\"arguments\":\"{}\"}</tool_call>"},
				{"role":"tool","tool_call_id":"given","content":"plain"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"given","name":"a","arguments":"{}","has_input":true,"path":"/messages/0/content"}]`,
			},
			wantIDs: map[int]string{1: "given"},
		},
		{
			name:     "invalid JSON payload",
			messages: `[{"role":"assistant","content":"<tool_call>{\"name\": \"a\", </tool_call>"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"inline-0-0","name":"","has_input":false,"path":"/messages/0/content","parse_error":"*"}]`,
			},
		},
		{
			name:     "payload not an object",
			messages: `[{"role":"assistant","content":"<tool_call>[\"a\"]</tool_call><tool_call></tool_call>"}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"inline-0-0","name":"","has_input":false,"path":"/messages/0/content","parse_error":"payload is not a JSON object"},
					{"index":1,"id":"inline-0-1","name":"","has_input":false,"path":"/messages/0/content","parse_error":"*"}]`,
			},
		},
		{
			name:     "missing closing tag takes the rest",
			messages: `[{"role":"assistant","content":"<tool_call> {\"name\":\"a\",\"arguments\":{\"b\":true}} "}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"inline-0-0","name":"a","arguments":{"b":true},"has_input":true,"path":"/messages/0/content"}]`,
			},
		},
		{
			name: "tags in content parts",
			messages: `[{"role":"assistant","content":[{"type":"text","text":"<tool_call>{\"name\":\"a\","},{"type":"text","text":"\"arguments\":{}}</tool_call>"}]},
				{"role":"tool","content":[{"type":"text","text":"<tool_result tool_call_id=\"p\">x</tool_result>"}]}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"p","name":"a","arguments":{},"has_input":true,"path":"/messages/0/content"}]`,
			},
			wantIDs: map[int]string{1: "p"},
		},
		{
			name: "structured calls ignored in inline mode",
			messages: `[{"role":"assistant","content":"<tool_call>{\"name\":\"a\"}</tool_call>","tool_calls":[{"id":"s","function":{"name":"x"}}]},
				{"role":"assistant","content":"no tags","tool_calls":[{"id":"t","function":{"name":"y"}}]}]`,
			wantCalls: map[int]string{
				0: `[{"index":0,"id":"inline-0-0","name":"a","has_input":false,"path":"/messages/0/content"}]`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, Chat, Options{}, `{"messages":`+tc.messages+`}`)
			m := docMap(t, d)
			if m["mode"] != "inline" {
				t.Fatalf("mode = %v, want inline", m["mode"])
			}
			for i, msg := range m["messages"].([]any) {
				msg := msg.(map[string]any)
				want := any([]any{})
				if s, ok := tc.wantCalls[i]; ok {
					want = js(t, s)
				}
				got := msg["tool_calls"]
				// A parse_error of "*" only has to be a message about invalid JSON.
				for j, c := range want.([]any) {
					c := c.(map[string]any)
					if c["parse_error"] != "*" {
						continue
					}
					gc := got.([]any)[j].(map[string]any)
					pe, _ := gc["parse_error"].(string)
					if !strings.HasPrefix(pe, "payload is not valid JSON: ") {
						t.Errorf("message %d call %d parse_error = %q", i, j, pe)
					}
					c["parse_error"] = pe
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("message %d tool_calls (-want +got):\n%s", i, diff)
				}
				id, has := msg["tool_call_id"]
				wantID, wantHas := tc.wantIDs[i]
				if has != wantHas || (has && id != wantID) {
					t.Errorf("message %d tool_call_id = %v (present %v), want %q (present %v)", i, id, has, wantID, wantHas)
				}
			}
		})
	}
}

func TestCheckToolCalls(t *testing.T) {
	for _, ok := range []string{"", "inline", "structured"} {
		if err := CheckToolCalls(ok); err != nil {
			t.Errorf("CheckToolCalls(%q): %v", ok, err)
		}
	}
	if err := CheckToolCalls("xml"); err == nil || err.Error() != `want inline or structured, not "xml"` {
		t.Errorf("CheckToolCalls(xml) = %v", err)
	}
}
