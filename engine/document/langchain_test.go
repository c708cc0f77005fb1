package document

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// LangChain messages in each spelling: a model_dump state with
// {name, args, id} calls and an invalid call, a messages_to_dict run whose
// calls are only OpenAI's under additional_kwargs and whose tool message
// failed, and an lc-serialized chat model run with its generation.
func TestLangChain(t *testing.T) {
	d := one(t, LangChain, Options{}, `{"messages":[`+
		`{"type":"human","content":"Stock?","id":"h1"},`+
		`{"type":"ai","content":"","tool_calls":[{"name":"stock","args":{"sku":"A"},"id":"c1","type":"tool_call"}],"invalid_tool_calls":[{"name":"price","args":"{sku:","id":"c2","error":"bad JSON"}],"response_metadata":{"model":"m"}},`+
		`{"type":"tool","content":"14","tool_call_id":"c1","status":"success"},`+
		`{"type":"AIMessageChunk","content":[{"type":"text","text":"14 left."}]}]}`)
	got := project(list(t, d, "messages"), "role", "text", "tool_call_id", "is_error", "path")
	want := js(t, `[
		{"role":"user","text":"Stock?","path":"/messages/0"},
		{"role":"assistant","text":"","path":"/messages/1"},
		{"role":"tool","text":"14","tool_call_id":"c1","is_error":false,"path":"/messages/2"},
		{"role":"assistant","text":"14 left.","path":"/messages/3"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("state (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[1, "c1", "stock", {"sku": "A"}, "/messages/1/tool_calls/0", null],
		[1, "c2", "price", "{sku:", "/messages/1/invalid_tool_calls/0", "bad JSON"]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("state calls (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Unmapped{{Line: 1, What: "LangChain members messages[].id, messages[].response_metadata"}}, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}

	run := one(t, LangChain, Options{}, `{"id":"r1","run_type":"chain","inputs":{"messages":[{"type":"human","data":{"content":"Rate?"}}]},"outputs":{"messages":[`+
		`{"type":"human","data":{"content":"Rate?"}},`+
		`{"type":"ai","data":{"content":"","additional_kwargs":{"tool_calls":[{"id":"c9","type":"function","function":{"name":"rate","arguments":"{}"}}]},"tool_calls":[]}},`+
		`{"type":"tool","data":{"content":"down","tool_call_id":"c9","status":"error"}}]}}`)
	if run.ID != "r1" {
		t.Errorf("run id %q", run.ID)
	}
	got = project(list(t, run, "messages"), "role", "tool_call_id", "is_error", "path")
	want = js(t, `[
		{"role":"user","path":"/outputs/messages/0/data"},
		{"role":"assistant","path":"/outputs/messages/1/data"},
		{"role":"tool","tool_call_id":"c9","is_error":true,"path":"/outputs/messages/2/data"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(js(t, `[[1, "c9", "rate", "{}", "/outputs/messages/1/data/additional_kwargs/tool_calls/0", null]]`), calls(t, run)); diff != "" {
		t.Errorf("run calls (-want +got):\n%s", diff)
	}

	lc := `{"lc":1,"type":"constructor","id":["langchain","schema","messages","%s"],"kwargs":{"content":"%s"}}`
	llm := one(t, LangChain, Options{}, `{"inputs":{"messages":[[`+sprintf(lc, "SystemMessage", "Be brief.")+`,`+sprintf(lc, "HumanMessage", "418?")+`]]},`+
		`"outputs":{"generations":[[{"text":"A teapot.","type":"ChatGeneration","message":`+sprintf(lc, "AIMessage", "A teapot.")+`}]]}}`)
	got = project(list(t, llm, "messages"), "role", "text", "path")
	want = js(t, `[
		{"role":"system","text":"Be brief.","path":"/inputs/messages/0/0/kwargs"},
		{"role":"user","text":"418?","path":"/inputs/messages/0/1/kwargs"},
		{"role":"assistant","text":"A teapot.","path":"/outputs/generations/0/0/message/kwargs"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("llm run (-want +got):\n%s", diff)
	}
}

func TestDetectLangChain(t *testing.T) {
	for _, tc := range []struct {
		rec  string
		want Format
	}{
		{`{"messages":[{"type":"human","content":"hi"}]}`, LangChain},
		{`{"messages":[{"type":"human","data":{"content":"hi"}}]}`, LangChain},
		{`{"messages":[{"lc":1,"type":"constructor","id":["langchain_core","messages","HumanMessage"],"kwargs":{"content":"hi"}}]}`, LangChain},
		{`{"inputs":{"messages":[[{"lc":1,"type":"constructor","id":["x","SystemMessage"],"kwargs":{"content":"s"}}]]},"outputs":{}}`, LangChain},
		{`{"messages":[{"role":"user","type":"human","content":"hi"}]}`, Chat},
		{`{"messages":[{"type":"text","content":"hi"}]}`, ""}, // no message has a role: not chat either
		{`{"inputs":{"question":"q"},"outputs":{"answer":"a"}}`, ""},
	} {
		if got, _ := Detect(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
