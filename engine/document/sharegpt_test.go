package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// calls projects the tool calls of every message: [message index, id, name,
// arguments as given].
func calls(t *testing.T, d *Document) []any {
	t.Helper()
	var out []any
	for _, m := range list(t, d, "messages") {
		mm := m.(map[string]any)
		for _, c := range mm["tool_calls"].([]any) {
			cm := c.(map[string]any)
			out = append(out, []any{mm["index"], cm["id"], cm["name"], cm["arguments"], cm["path"], cm["parse_error"]})
		}
	}
	return out
}

// A Glaive / LLaMA-Factory record: speakers mapped to roles, the system
// field first, a function_call turn's JSON value as its call, the
// observation after it answering it with the same generated id, tools from
// a JSON string.
func TestShareGPTFunctionCall(t *testing.T) {
	d := one(t, ShareGPT, Options{}, `{"system":"You can call functions.","tools":"[{\"name\": \"get_weather\", \"description\": \"Weather\", \"parameters\": {\"type\": \"object\"}}]","conversations":[`+
		`{"from":"human","value":"Weather in Paris?"},`+
		`{"from":"function_call","value":"{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\"}}"},`+
		`{"from":"observation","value":"{\"temp_c\": 18}"},`+
		`{"from":"gpt","value":"It is 18 °C."}]}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "has_content", "tool_call_id", "turn", "path")
	want := js(t, `[
		{"index":0,"role":"system","text":"You can call functions.","has_content":true,"turn":-1,"path":"/system"},
		{"index":1,"role":"user","text":"Weather in Paris?","has_content":true,"turn":-1,"path":"/conversations/0"},
		{"index":2,"role":"assistant","text":"","has_content":false,"turn":2,"path":"/conversations/1"},
		{"index":3,"role":"tool","text":"{\"temp_c\": 18}","has_content":true,"tool_call_id":"sharegpt-2-0","turn":2,"path":"/conversations/2"},
		{"index":4,"role":"assistant","text":"It is 18 °C.","has_content":true,"turn":4,"path":"/conversations/3"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[[2, "sharegpt-2-0", "get_weather", {"city": "Paris"}, "/conversations/1/value", null]]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	tools := project(list(t, d, "tools"), "index", "name", "path", "parameters")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"index":0,"name":"get_weather","path":"/tools","parameters":{"type":"object"}}]`)), tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if docMap(t, d)["format"] != "sharegpt" {
		t.Errorf("format %v", docMap(t, d)["format"])
	}
}

// Parallel calls in one function_call turn (a JSON list) are answered by
// the observations after it in order; an observation past them, or one with
// no call before it, answers nothing.
func TestShareGPTPairing(t *testing.T) {
	d := one(t, ShareGPT, Options{}, `{"id":"conv-9","tools":[{"name":"a"},{"name":"b"}],"conversations":[`+
		`{"from":"observation","value":"early"},`+
		`{"from":"human","value":"go"},`+
		`{"from":"function_call","value":[{"name":"a","arguments":"{}"},{"name":"b","arguments":{"x":1},"id":"own"}]},`+
		`{"from":"observation","value":"ra"},`+
		`{"from":"tool","value":"rb"},`+
		`{"from":"observation","value":"extra"},`+
		`{"from":"function_call","value":"not json"},`+
		`{"from":"bing","value":"hi"}]}`)
	got := project(list(t, d, "messages"), "index", "role", "tool_call_id")
	want := js(t, `[
		{"index":0,"role":"tool"},
		{"index":1,"role":"user"},
		{"index":2,"role":"assistant"},
		{"index":3,"role":"tool","tool_call_id":"sharegpt-2-0"},
		{"index":4,"role":"tool","tool_call_id":"own"},
		{"index":5,"role":"tool"},
		{"index":6,"role":"assistant"},
		{"index":7,"role":"assistant"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[2, "sharegpt-2-0", "a", "{}", "/conversations/2/value", null],
		[2, "own", "b", {"x": 1}, "/conversations/2/value", null],
		[6, "sharegpt-6-0", "", null, "/conversations/6/value", "value is not valid JSON: invalid character 'o' in literal null (expecting 'u') (byte 2)"]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if d.ID != "conv-9" || len(list(t, d, "tools")) != 2 {
		t.Errorf("id %q, tools %v", d.ID, list(t, d, "tools"))
	}
}

// Hermes-style turns: <tool_call> tags in a gpt value (inline mode), tool
// turns holding <tool_response> answering them by position.
func TestShareGPTHermesTags(t *testing.T) {
	d := one(t, ShareGPT, Options{}, `{"conversations":[`+
		`{"from":"system","value":"<tools>[]</tools>"},`+
		`{"from":"human","value":"Distance and time?"},`+
		`{"from":"gpt","value":"<tool_call>\n{\"arguments\": {\"a\": 1}, \"name\": \"distance\"}\n</tool_call>\n<tool_call>\n{\"name\": \"clock\", \"arguments\": {}}\n</tool_call>"},`+
		`{"from":"tool","value":"<tool_response>\n{\"km\": 4}\n</tool_response>"},`+
		`{"from":"tool","value":"<tool_response>\n{\"t\": \"noon\"}\n</tool_response>"},`+
		`{"from":"gpt","value":"4 km, at noon."}]}`)
	if m := docMap(t, d)["mode"]; m != "inline" {
		t.Fatalf("mode %v, want inline", m)
	}
	wantCalls := js(t, `[
		[2, "sharegpt-2-0", "distance", {"a": 1}, "/conversations/2/value", null],
		[2, "sharegpt-2-1", "clock", {}, "/conversations/2/value", null]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	got := project(list(t, d, "messages")[3:5], "tool_call_id")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"tool_call_id":"sharegpt-2-0"},{"tool_call_id":"sharegpt-2-1"}]`)), got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
}

// The {role, content} variant some ShareGPT exports use reads the same.
func TestShareGPTRoleContent(t *testing.T) {
	d := one(t, ShareGPT, Options{}, `{"conversations":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`)
	got := project(list(t, d, "messages"), "role", "text")
	if diff := cmp.Diff(asMaps(t, js(t, `[{"role":"user","text":"hi"},{"role":"assistant","text":"hello"}]`)), got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// LLaMA-Factory's preference data (../shared/data): every record's two
// answers are read as one assistant message each, beside the prompt.
func TestShareGPTPreferenceRealData(t *testing.T) {
	rf := loadRealData(t)["llamafactory/llamafactory-dpo_zh_demo.first40.json"]
	if rf == nil || len(rf.docs) != 40 {
		t.Fatalf("the preference file is absent or not read: %+v", rf)
	}
	for _, d := range rf.docs {
		m := docMap(t, d)
		for _, k := range []string{"chosen", "rejected"} {
			ans, _ := m[k].([]any)
			if len(ans) != 1 || ans[0].(map[string]any)["role"] != "assistant" || ans[0].(map[string]any)["text"] == "" {
				t.Fatalf("line %d: %s is %v", d.Line, k, m[k])
			}
		}
	}
}

// A preference record's answers: a turn, a list of turns, or a string,
// each a list of messages with its own paths.
func TestShareGPTPreference(t *testing.T) {
	d := one(t, ShareGPT, Options{}, `{"conversations":[{"from":"human","value":"Hi"}],"chosen":[{"from":"gpt","value":"Hello."}],"rejected":"Go away."}`)
	m := docMap(t, d)
	got := []any{project(m["chosen"], "role", "text", "path"), project(m["rejected"], "role", "text", "path")}
	want := []any{
		asMaps(t, js(t, `[{"role":"assistant","text":"Hello.","path":"/chosen/0"}]`)),
		asMaps(t, js(t, `[{"role":"assistant","text":"Go away.","path":"/rejected"}]`)),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, ok := docMap(t, one(t, ShareGPT, Options{}, `{"conversations":[{"from":"human","value":"Hi"}]}`))["chosen"]; ok {
		t.Error("a record without answers has a chosen member")
	}
}

// The same answers beside a chat record's messages (LLaMA-Factory's
// OpenAI-style layout) are read as {role, content} messages.
func TestChatPreference(t *testing.T) {
	d := one(t, Chat, Options{}, `{"messages":[{"role":"user","content":"Hi"}],"chosen":{"role":"assistant","content":"Hello."},"rejected":[{"role":"assistant","content":"Go away."}]}`)
	m := docMap(t, d)
	got := []any{project(m["chosen"], "role", "text", "path"), project(m["rejected"], "role", "text", "path")}
	want := []any{
		asMaps(t, js(t, `[{"role":"assistant","text":"Hello.","path":"/chosen"}]`)),
		asMaps(t, js(t, `[{"role":"assistant","text":"Go away.","path":"/rejected/0"}]`)),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
