package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A Gemini CLI session as one JSON document: user and gemini messages are
// user and assistant messages (content a string or [{text}] parts), each
// toolCall a call and its functionResponse a tool message after it,
// flagged when the call's status is not success; info notices are no
// message; the members no message holds are listed for convert.
func TestGeminiCLISession(t *testing.T) {
	d := one(t, GeminiCLI, Options{},
		`{"sessionId":"s-1","projectHash":"ab","startTime":"t0","lastUpdated":"t9","messages":[`+
			`{"id":"m1","timestamp":"t1","type":"user","content":[{"text":"Count lines."}]},`+
			`{"id":"m2","timestamp":"t2","type":"gemini","content":"","thoughts":[{"subject":"Plan","description":"use wc"}],"tokens":{"total":3},"model":"gemini-2.5-pro",`+
			`"toolCalls":[{"id":"c1","name":"run_shell_command","args":{"command":"wc -l a"},"status":"success","resultDisplay":"3 a",`+
			`"result":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"output":"3 a"}}}]},`+
			`{"id":"c2","name":"read_file","args":{"path":"b"},"status":"error","result":[{"functionResponse":{"id":"c2","name":"read_file","response":{"error":"no such file"}}}]}]},`+
			`{"id":"m3","timestamp":"t3","type":"info","content":"Request cancelled."},`+
			`{"id":"m4","timestamp":"t4","type":"gemini","content":"a has 3 lines; b is missing."},`+
			`{"id":"m5","timestamp":"t5","type":"robot","content":"?"}]}`)
	if d.ID != "s-1" {
		t.Errorf("id %q", d.ID)
	}
	got := project(list(t, d, "messages"), "index", "role", "text", "tool_call_id", "is_error", "turn", "path")
	want := js(t, `[
		{"index":0,"role":"user","text":"Count lines.","turn":-1,"path":"/messages/0"},
		{"index":1,"role":"assistant","text":"","turn":1,"path":"/messages/1"},
		{"index":2,"role":"tool","text":"3 a","tool_call_id":"c1","is_error":false,"turn":1,"path":"/messages/1/toolCalls/0/result/0"},
		{"index":3,"role":"tool","text":"no such file","tool_call_id":"c2","is_error":true,"turn":1,"path":"/messages/1/toolCalls/1/result/0"},
		{"index":4,"role":"assistant","text":"a has 3 lines; b is missing.","turn":4,"path":"/messages/3"},
		{"index":5,"role":"robot","text":"?","turn":4,"path":"/messages/4"}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	wantCalls := js(t, `[
		[1, "c1", "run_shell_command", {"command": "wc -l a"}, "/messages/1/toolCalls/0", null],
		[1, "c2", "read_file", {"path": "b"}, "/messages/1/toolCalls/1", null]
	]`)
	if diff := cmp.Diff(wantCalls, calls(t, d)); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 1, What: "Gemini CLI members info messages (notices the CLI showed, never sent to the model), lastUpdated, messages[].id, messages[].model, messages[].timestamp, messages[].tokens, projectHash, sessionId, startTime, toolCalls[].resultDisplay"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
}

// The JSON Lines variant: a header line, message lines, $set patches
// (entries only), and a message written again under its id when its tool
// calls finish: the last copy is read, in the place of the first.
func TestGeminiCLISessionLines(t *testing.T) {
	d := one(t, GeminiCLI, Options{},
		`{"sessionId":"s-2","projectHash":"cd","startTime":"t0","lastUpdated":"t0","kind":"main"}`,
		`{"id":"u1","timestamp":"t1","type":"user","content":[{"text":"List files."}]}`,
		`{"$set":{"lastUpdated":"t1"}}`,
		`{"id":"g1","timestamp":"t2","type":"gemini","content":""}`,
		`{"$set":{"lastUpdated":"t2"}}`,
		`{"id":"g1","timestamp":"t2","type":"gemini","content":"","toolCalls":[{"id":"k1","name":"ls","args":{},"status":"success","result":[{"functionResponse":{"id":"k1","name":"ls","response":{"output":"a b"}}}]}]}`,
		`{"id":"g2","timestamp":"t3","type":"gemini","content":"Two files."}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "tool_call_id", "line", "path")
	want := js(t, `[
		{"index":0,"role":"user","text":"List files.","line":2,"path":""},
		{"index":1,"role":"assistant","text":"","line":6,"path":""},
		{"index":2,"role":"tool","text":"a b","tool_call_id":"k1","line":6,"path":"/toolCalls/0/result/0"},
		{"index":3,"role":"assistant","text":"Two files.","line":7,"path":""}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	entries := project(list(t, d, "entries"), "line", "type")
	wantEntries := js(t, `[{"line":2,"type":"user"},{"line":3,"type":"$set"},{"line":4,"type":"gemini"},{"line":5,"type":"$set"},{"line":6,"type":"gemini"},{"line":7,"type":"gemini"}]`)
	if diff := cmp.Diff(asMaps(t, wantEntries), entries); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	wantUn := []Unmapped{{Line: 1, What: "Gemini CLI members kind, lastUpdated, messages[].id, messages[].timestamp, projectHash, sessionId, startTime"}}
	if diff := cmp.Diff(wantUn, d.Unmapped); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
}

// Detection asks for a string sessionId and projectHash with the messages
// list, or, on a header line, the start time and no messages.
func TestDetectGeminiCLI(t *testing.T) {
	for _, tc := range []struct {
		rec  string
		want Format
	}{
		{`{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","messages":[]}`, GeminiCLI},
		{`{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}`, GeminiCLI},
		{`{"sessionId":"s","projectHash":"h"}`, ""},
		{`{"sessionId":"s","projectHash":7,"messages":[]}`, Chat},
		{`{"id":"m","timestamp":"t","type":"user","content":"hi"}`, ""},
	} {
		if got, _ := Detect(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Detect(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}

// repair holds a JSON Lines session to its header: the header is valid, and
// a message record or a $set patch is a line only such a session holds
// after it.
func TestGeminiCLIHeader(t *testing.T) {
	h := Lookup(GeminiCLI).Header
	for rec, want := range map[string][2]bool{
		`{"sessionId":"s","projectHash":"h","startTime":"t"}`:                   {true, false},
		`{"$set":{"lastUpdated":"t"}}`:                                          {false, true},
		`{"$set":{},"x":1}`:                                                     {false, false},
		`{"id":"m","timestamp":"t","type":"gemini","content":""}`:               {false, true},
		`{"id":"m","timestamp":"t","type":"user","content":"x","uuid":"u"}`:     {false, true},
		`{"id":"m","timestamp":"t","type":"user","message":{"role":"user"}}`:    {false, false},
		`{"timestamp":"t","type":"response_item","payload":{"type":"message"}}`: {false, false},
	} {
		o := obj(t, rec)
		if got := [2]bool{h.Valid(o), h.Entry(o)}; got != want {
			t.Errorf("%s: Valid, Entry = %v, want %v", rec, got, want)
		}
	}
}

// A functionResponse without its response (fuzzing found it: the builder
// dereferenced the missing member) is a tool message with no text, flagged
// by its call's status alone.
func TestGeminiCLIResponseMissing(t *testing.T) {
	d := one(t, GeminiCLI, Options{},
		`{"sessionId":"s","projectHash":"p","messages":[`+
			`{"id":"m1","type":"gemini","content":"x","toolCalls":[{"id":"c1","name":"ls","status":"success","result":[{"functionResponse":{"id":"c1","name":"ls"}}]}]}]}`)
	got := project(list(t, d, "messages"), "index", "role", "text", "tool_call_id", "is_error")
	want := js(t, `[
		{"index":0,"role":"assistant","text":"x"},
		{"index":1,"role":"tool","text":"","tool_call_id":"c1","is_error":false}
	]`)
	if diff := cmp.Diff(asMaps(t, want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
