package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A Gemini record: systemInstruction first, model turns' functionCall parts
// as calls (ids given or positional), each functionResponse part a tool
// message of its own answering by id or position, the rest of the user turn
// after them, function declarations flattened into tools.
func TestGeminiRecord(t *testing.T) {
	d := one(t, Gemini, Options{}, `{"systemInstruction":{"role":"system","parts":[{"text":"Be brief."}]},`+
		`"tools":[{"functionDeclarations":[{"name":"get_weather","parameters":{"type":"object"}},{"name":"get_time"}]},{"googleSearch":{}}],`+
		`"contents":[`+
		`{"role":"user","parts":[{"text":"Weather and time in Paris?"},{"inlineData":{"mimeType":"image/png","data":"iVBOR"}}]},`+
		`{"role":"model","parts":[{"text":"Checking."},{"functionCall":{"name":"get_weather","args":{"city":"Paris"}}},{"functionCall":{"id":"fc-2","name":"get_time","args":{}}}]},`+
		`{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"temp_c":18}}},{"functionResponse":{"id":"fc-2","name":"get_time","response":{"time":"noon"}}},{"text":"Thanks"}]},`+
		`{"role":"model","parts":[{"text":"18 °C at noon."}]}]}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "has_content", "tool_call_id", "turn", "path")
	want := js(t, `[
		{"index":0,"role":"system","text":"Be brief.","has_content":true,"turn":-1,"path":"/systemInstruction"},
		{"index":1,"role":"user","text":"Weather and time in Paris?","has_content":true,"turn":-1,"path":"/contents/0"},
		{"index":2,"role":"assistant","text":"Checking.","has_content":true,"turn":2,"path":"/contents/1"},
		{"index":3,"role":"tool","text":"","has_content":true,"tool_call_id":"gemini-2-0","turn":2,"path":"/contents/2/parts/0"},
		{"index":4,"role":"tool","text":"","has_content":true,"tool_call_id":"fc-2","turn":2,"path":"/contents/2/parts/1"},
		{"index":5,"role":"user","text":"Thanks","has_content":true,"turn":2,"path":"/contents/2"},
		{"index":6,"role":"assistant","text":"18 °C at noon.","has_content":true,"turn":6,"path":"/contents/3"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[2, "gemini-2-0", "get_weather", {"city": "Paris"}, "/contents/1/parts/1", null],
		[2, "fc-2", "get_time", {}, "/contents/1/parts/2", null]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	tools := project(list(t, d, "tools"), "index", "name", "path")
	wantTools := js(t, `[{"index":0,"name":"get_weather","path":"/tools/0/functionDeclarations/0"},{"index":1,"name":"get_time","path":"/tools/0/functionDeclarations/1"}]`)
	if diff := cmp.Diff(asMaps(t, wantTools), tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// A batch prediction line: the request under "request", snake_case names,
// the line's key as id; a response past the calls answers nothing.
func TestGeminiBatchLine(t *testing.T) {
	d := one(t, Gemini, Options{}, `{"key":"req-7","request":{"system_instruction":{"parts":[{"text":"s"}]},"contents":[`+
		`{"role":"user","parts":[{"text":"go"}]},`+
		`{"role":"model","parts":[{"function_call":{"name":"f","args":null}}]},`+
		`{"role":"user","parts":[{"function_response":{"name":"f","response":{}}},{"function_response":{"name":"g","response":{}}}]}]}}`)
	got := project(list(t, d, "messages"), "role", "tool_call_id", "path", "has_content")
	want := js(t, `[
		{"role":"system","path":"/request/system_instruction","has_content":true},
		{"role":"user","path":"/request/contents/0","has_content":true},
		{"role":"assistant","path":"/request/contents/1","has_content":false},
		{"role":"tool","tool_call_id":"gemini-2-0","path":"/request/contents/2/parts/0","has_content":false},
		{"role":"tool","path":"/request/contents/2/parts/1","has_content":false}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[2, "gemini-2-0", "f", null, "/request/contents/1/parts/0", null]]`), calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if d.ID != "req-7" {
		t.Errorf("id %q", d.ID)
	}
}
