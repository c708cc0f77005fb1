package document

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestProxyLogSquash(t *testing.T) {
	const (
		sys  = `{"role":"system","content":"s"}`
		dev  = `{"role":"developer","content":"d"}`
		user = `{"role":"user","content":"u"}`
		act  = `{"role":"assistant","content":"c","tool_calls":[{"id":"c1","function":{"name":"a","arguments":"{}"}}]}`
		tool = `{"role":"tool","tool_call_id":"c1","content":"r"}`
		at   = `{"role":"assistant","content":null,"tool_calls":[{"id":"c2","function":{"name":"b","arguments":"{}"}}]}`
		a    = `{"role":"assistant","content":"","tool_calls":[]}`
		ac   = `{"role":"assistant","content":[{"type":"text","text":"x"}]}`
		odd  = `{"role":"critic","content":"o"}`
		resp = `{"role":"assistant","content":"final"}`
	)
	lines := []string{
		// 1: two messages, tool a (first definition wins).
		`{"timestamp":"t1","session_id":"s1","request":{"messages":[` + sys + `,` + user + `],
			"tools":[{"type":"function","function":{"name":"a","description":"first"}}]},
			"response":{"choices":[{"message":{"role":"assistant","content":"r1"}}]}}`,
		"",
		// 3: the maximum, nine messages, under request.body (gateway style).
		`{"timestamp":3,"session_id":"s1","request":{"body":{"messages":[` + dev + `,` + user + `,` + act + `,` + tool + `,` + at + `,` + a + `,` + ac + `,` + odd + `,"notobj"],
			"tools":[{"type":"function","function":{"name":"a","description":"second"}},{"name":"b","parameters":{}}]}},
			"response":{"choices":[{"message":{"role":"assistant","content":"r3"}}]}}`,
		// 4: also nine messages: the last entry with the maximum wins.
		`{"timestamp":"t4","request":{"messages":[` + sys + `,` + user + `,` + act + `,` + tool + `,` + at + `,` + a + `,` + ac + `,` + odd + `,` + user + `],
			"tools":[{"name":"b","v":2},{"type":"function","function":{"name":"c"}},{"description":"no name"}]},
			"response":{"body":{"choices":[{"message":` + resp + `}]}}}`,
		// 5: a shorter trailing entry.
		`{"timestamp":"t5","session_id":"s1","request":{"messages":[` + user + `],"tools":[{"name":"d"},{"description":"no name"}]},
			"response":{"choices":[{"message":{"role":"assistant","content":"short"}}]}}`,
		// 6: not a request.
		`{"timestamp":"t6","session_id":"s1","event":"heartbeat"}`,
	}
	d := one(t, ProxyLog, Options{}, lines...)
	if d.ID != "s1" || d.Line != 1 || d.File != "f.jsonl" || d.Format != ProxyLog {
		t.Errorf("Document = %+v", *d)
	}
	m := docMap(t, d)
	if m["mode"] != "structured" || m["line"] != 1.0 || m["id"] != "s1" || m["format"] != "proxy-log" {
		t.Errorf("header fields: mode %v line %v id %v format %v", m["mode"], m["line"], m["id"], m["format"])
	}

	// Entries: one per line, raw dropped (not kept on entries).
	// The role trace is the reference converter's: an unknown role is its
	// first letter in upper case, a message without a role has no token.
	wantEntries := js(t, `[
		{"index":0,"line":1,"type":"request","session_id":"s1","timestamp":"t1","valid":true,"message_count":2,"roles":["S","U"]},
		{"index":1,"line":3,"type":"request","session_id":"s1","timestamp":3,"valid":true,"message_count":9,
		 "roles":["S","U","Act","T","At","A","Ac","C"]},
		{"index":2,"line":4,"type":"request","timestamp":"t4","valid":true,"message_count":9,
		 "roles":["S","U","Act","T","At","A","Ac","C","U"]},
		{"index":3,"line":5,"type":"request","session_id":"s1","timestamp":"t5","valid":true,"message_count":1,"roles":["U"]},
		{"index":4,"line":6,"type":"request","session_id":"s1","timestamp":"t6","valid":false,"message_count":0,"roles":[]}
	]`)
	if diff := cmp.Diff(wantEntries, m["entries"]); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}

	// Messages: the request of line 4 plus its response.
	wantMsgs := js(t, `[
		{"index":0,"role":"system","line":4,"path":"/request/messages/0","turn":-1},
		{"index":1,"role":"user","line":4,"path":"/request/messages/1","turn":-1},
		{"index":2,"role":"assistant","line":4,"path":"/request/messages/2","turn":2},
		{"index":3,"role":"tool","line":4,"path":"/request/messages/3","turn":2,"tool_call_id":"c1"},
		{"index":4,"role":"assistant","line":4,"path":"/request/messages/4","turn":4},
		{"index":5,"role":"assistant","line":4,"path":"/request/messages/5","turn":5},
		{"index":6,"role":"assistant","line":4,"path":"/request/messages/6","turn":6},
		{"index":7,"role":"critic","line":4,"path":"/request/messages/7","turn":6},
		{"index":8,"role":"user","line":4,"path":"/request/messages/8","turn":6},
		{"index":9,"role":"assistant","line":4,"path":"/response/body/choices/0/message","turn":9}
	]`)
	msgs := m["messages"]
	if diff := cmp.Diff(asMaps(t, wantMsgs), project(msgs, "index", "role", "line", "path", "turn", "tool_call_id")); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	calls := msgs.([]any)[4].(map[string]any)["tool_calls"]
	if diff := cmp.Diff(js(t, `[{"index":0,"id":"c2","name":"b","arguments":"{}","has_input":true,"path":"/request/messages/4/tool_calls/0"}]`), calls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}

	// Tools: deduplicated by name across entries, first wins; nameless kept.
	wantTools := js(t, `[
		{"index":0,"name":"a","path":"/request/tools/0","function_path":"/request/tools/0/function","parameters_path":"/request/tools/0/function/parameters",
		 "function":{"name":"a","description":"first"},"raw":{"type":"function","function":{"name":"a","description":"first"}}},
		{"index":1,"name":"b","path":"/request/body/tools/1","function_path":"/request/body/tools/1",
		 "function":{"name":"b","parameters":{}},"raw":{"name":"b","parameters":{}},
		 "parameters":{},"parameters_path":"/request/body/tools/1/parameters"},
		{"index":2,"name":"c","path":"/request/tools/1","function_path":"/request/tools/1/function","parameters_path":"/request/tools/1/function/parameters",
		 "function":{"name":"c"},"raw":{"type":"function","function":{"name":"c"}}},
		{"index":3,"name":"","path":"/request/tools/2","function_path":"/request/tools/2","parameters_path":"/request/tools/2/parameters",
		 "function":{"description":"no name"},"raw":{"description":"no name"}},
		{"index":4,"name":"d","path":"/request/tools/0","function_path":"/request/tools/0","parameters_path":"/request/tools/0/parameters",
		 "function":{"name":"d"},"raw":{"name":"d"}},
		{"index":5,"name":"","path":"/request/tools/1","function_path":"/request/tools/1","parameters_path":"/request/tools/1/parameters",
		 "function":{"description":"no name"},"raw":{"description":"no name"}}
	]`)
	if diff := cmp.Diff(wantTools, m["tools"]); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	// Tools carry no line in the document; Locate knows where each came from.
	for i, want := range []int{1, 3, 4, 4, 5, 5} {
		if line, _, _ := d.Locate(TargetOf(-1, -1, i, -1)); line != want {
			t.Errorf("tool %d: line %d, want %d", i, line, want)
		}
	}

	// raw: the squashed record with flattened tools.
	wantRaw := js(t, `{"messages":[`+sys+`,`+user+`,`+act+`,`+tool+`,`+at+`,`+a+`,`+ac+`,`+odd+`,`+user+`,`+resp+`],
		"tools":[{"name":"a","description":"first"},{"name":"b","parameters":{}},{"name":"c"},{"description":"no name"},{"name":"d"},{"description":"no name"}]}`)
	if diff := cmp.Diff(wantRaw, m["raw"]); diff != "" {
		t.Errorf("raw (-want +got):\n%s", diff)
	}
}

// TestProxyLogSelection checks which entry is chosen and which response is
// appended.
func TestProxyLogSelection(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string // messages projected on role, text, line, path
	}{
		{
			name: "longest wins even when a shorter entry follows",
			lines: []string{
				`{"request":{"messages":[{"role":"user","content":"a"}]},"response":{"choices":[{"message":{"role":"assistant","content":"ra"}}]}}`,
				`{"request":{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"ra"},{"role":"user","content":"b"}]},"response":{"choices":[{"message":{"role":"assistant","content":"rb"}}]}}`,
				`{"request":{"messages":[{"role":"user","content":"new"}]},"response":{"choices":[{"message":{"role":"assistant","content":"rn"}}]}}`,
			},
			want: `[{"role":"user","text":"a","line":2,"path":"/request/messages/0"},
				{"role":"assistant","text":"ra","line":2,"path":"/request/messages/1"},
				{"role":"user","text":"b","line":2,"path":"/request/messages/2"},
				{"role":"assistant","text":"rb","line":2,"path":"/response/choices/0/message"}]`,
		},
		{
			name: "response of the chosen entry only",
			lines: []string{
				`{"request":{"messages":[{"role":"user","content":"a"}]},"response":{"choices":[{"message":{"role":"assistant","content":"ra"}}]}}`,
				`{"request":{"messages":[{"role":"user","content":"b"}]}}`,
			},
			want: `[{"role":"user","text":"b","line":2,"path":"/request/messages/0"}]`,
		},
		{name: "no response", lines: []string{`{"request":{"messages":[]}}`}, want: `null`},
		{name: "response null", lines: []string{`{"request":{"messages":[]},"response":null}`}, want: `null`},
		{name: "no choices", lines: []string{`{"request":{"messages":[]},"response":{"choices":[]}}`}, want: `null`},
		{name: "choices not a list", lines: []string{`{"request":{"messages":[]},"response":{"choices":{"message":{"role":"assistant"}}}}`}, want: `null`},
		{name: "choice not an object", lines: []string{`{"request":{"messages":[]},"response":{"choices":["x"]}}`}, want: `null`},
		{name: "choice without message", lines: []string{`{"request":{"messages":[]},"response":{"choices":[{"text":"legacy"}]}}`}, want: `null`},
		{name: "message not an object", lines: []string{`{"request":{"messages":[]},"response":{"choices":[{"message":"text"}]}}`}, want: `null`},
		{name: "error body", lines: []string{`{"request":{"messages":[]},"response":{"status":500,"body":{"error":"x"}}}`}, want: `null`},
		{
			name: "response under body with an empty request",
			lines: []string{
				`{"request":{"body":{"messages":[]}},"response":{"body":{"choices":[{"message":{"role":"assistant","content":"hi"}}]}}}`,
			},
			want: `[{"role":"assistant","text":"hi","line":1,"path":"/response/body/choices/0/message"}]`,
		},
		{
			name: "invalid entries never chosen",
			lines: []string{
				`{"request":{"messages":[{"role":"user","content":"a"}]}}`,
				`{"request":{"messages":"not a list"},"response":{"choices":[{"message":{"role":"assistant","content":"x"}}]}}`,
				`{"request":{"body":null}}`,
			},
			want: `[{"role":"user","text":"a","line":1,"path":"/request/messages/0"}]`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := one(t, ProxyLog, Options{}, tc.lines...)
			msgs := list(t, d, "messages")
			var got []map[string]any
			if len(msgs) > 0 {
				got = project(any(msgs), "role", "text", "line", "path")
			}
			var want []map[string]any
			if w := js(t, tc.want); w != nil {
				want = asMaps(t, w)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
			if n := len(list(t, d, "entries")); n != len(tc.lines) {
				t.Errorf("%d entries, want %d", n, len(tc.lines))
			}
		})
	}
}

func TestProxyLogNoValidEntry(t *testing.T) {
	d := one(t, ProxyLog, Options{}, "",
		`{"session_id":"s","timestamp":1,"request":{"method":"GET","body":null}}`,
		`{"session_id":"s","request":{"messages":{"role":"user"},"tools":[{"name":"x"}]}}`)
	want := js(t, `{"format":"proxy-log","file":"f.jsonl","line":2,"id":"s","mode":"structured","profile":"default",
		"messages":[],"tools":[],
		"entries":[
			{"index":0,"line":2,"type":"request","session_id":"s","timestamp":1,"valid":false,"message_count":0,"roles":[]},
			{"index":1,"line":3,"type":"request","session_id":"s","valid":false,"message_count":0,"roles":[]}],
		"raw":null,`+emptyLookupJSON+`}`)
	if diff := cmp.Diff(want, goValue(t, d.Value)); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestProxyLogInlineMode(t *testing.T) {
	d := one(t, ProxyLog, Options{}, `{"request":{"messages":[{"role":"user","content":"q"}]},
		"response":{"choices":[{"message":{"role":"assistant","content":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>"}}]}}`)
	m := docMap(t, d)
	if m["mode"] != "inline" {
		t.Fatalf("mode = %v", m["mode"])
	}
	calls := m["messages"].([]any)[1].(map[string]any)["tool_calls"]
	if diff := cmp.Diff(js(t, `[{"index":0,"id":"inline-1-0","name":"f","arguments":{},"has_input":true,"path":"/response/choices/0/message/content"}]`), calls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
}

func TestPiSession(t *testing.T) {
	const header = `{"type":"session","id":"sess-1","timestamp":"2025-01-01T00:00:00Z","cwd":"/w"}`
	lines := []string{
		header,
		`{"type":"message","timestamp":"2025-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"text","text":"read a"}]}}`,
		`{"type":"model_change","timestamp":"2025-01-01T00:00:02Z","provider":"p","modelId":"m"}`,
		"",
		`{"type":"message","id":"e4","timestamp":5,"message":{"role":"assistant","content":[{"type":"text","text":"Reading."},{"type":"toolCall","id":"tc1","name":"read","arguments":{"path":"a"}},{"type":"toolCall","id":"tc2","name":"ls","arguments":{}}]}}`,
		`{"type":"message","message":{"role":"toolResult","toolCallId":"tc1","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false}}`,
		`{"type":"message","message":{"role":"toolResult","toolUseId":"tc2","content":"x"}}`,
		`{"type":"compaction","summary":"earlier","firstKeptEntryIndex":1}`,
		`{"type":"message"}`,
		`{"type":"message","message":{"role":"bashExecution","command":"ls"}}`,
		`{"type":"session","id":"again"}`,
		`{"other":true}`,
	}
	d := one(t, PiSession, Options{}, lines...)
	if d.ID != "sess-1" || d.Line != 1 || d.Format != PiSession {
		t.Errorf("Document = %+v", *d)
	}
	m := docMap(t, d)
	if diff := cmp.Diff(js(t, header), m["raw"]); diff != "" {
		t.Errorf("raw is not the header (-want +got):\n%s", diff)
	}
	if m["mode"] != "structured" || m["id"] != "sess-1" || m["line"] != 1.0 {
		t.Errorf("mode %v id %v line %v", m["mode"], m["id"], m["line"])
	}
	if diff := cmp.Diff([]any{}, m["tools"]); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}

	wantEntries := js(t, `[
		{"index":0,"line":2,"type":"message","timestamp":"2025-01-01T00:00:01Z"},
		{"index":1,"line":3,"type":"model_change","timestamp":"2025-01-01T00:00:02Z"},
		{"index":2,"line":5,"type":"message","timestamp":5,"id":"e4"},
		{"index":3,"line":6,"type":"message"},
		{"index":4,"line":7,"type":"message"},
		{"index":5,"line":8,"type":"compaction"},
		{"index":6,"line":9,"type":"message"},
		{"index":7,"line":10,"type":"message"},
		{"index":8,"line":11,"type":"session","id":"again"},
		{"index":9,"line":12,"type":""}
	]`)
	entries := m["entries"].([]any)
	for i, e := range entries {
		e := e.(map[string]any)
		if diff := cmp.Diff(js(t, lines[int(e["line"].(float64))-1]), e["raw"]); diff != "" {
			t.Errorf("entry %d raw (-want +got):\n%s", i, diff)
		}
		delete(e, "raw")
	}
	if diff := cmp.Diff(wantEntries, any(entries)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}

	msgs := m["messages"]
	wantMsgs := js(t, `[
		{"index":0,"role":"user","text":"read a","has_content":true,"turn":-1,"line":2,"path":"/message"},
		{"index":1,"role":"assistant","text":"Reading.","has_content":true,"turn":1,"line":5,"path":"/message"},
		{"index":2,"role":"tool","text":"data","has_content":true,"turn":1,"line":6,"path":"/message","tool_call_id":"tc1"},
		{"index":3,"role":"tool","text":"x","has_content":true,"turn":1,"line":7,"path":"/message","tool_call_id":"tc2"},
		{"index":4,"role":"bashExecution","text":"","has_content":false,"turn":1,"line":10,"path":"/message"}
	]`)
	if diff := cmp.Diff(asMaps(t, wantMsgs), project(msgs, "index", "role", "text", "has_content", "turn", "line", "path", "tool_call_id")); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	calls := msgs.([]any)[1].(map[string]any)["tool_calls"]
	if diff := cmp.Diff(js(t, `[
		{"index":0,"id":"tc1","name":"read","arguments":{"path":"a"},"has_input":true,"path":"/message/content/1"},
		{"index":1,"id":"tc2","name":"ls","arguments":{},"has_input":true,"path":"/message/content/2"}]`), calls); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	raw := msgs.([]any)[2].(map[string]any)["raw"]
	if diff := cmp.Diff(js(t, `{"role":"toolResult","toolCallId":"tc1","toolName":"read","content":[{"type":"text","text":"data"}],"isError":false}`), raw); diff != "" {
		t.Errorf("message raw is not the message as given (-want +got):\n%s", diff)
	}
}

func TestPiSessionWithoutHeader(t *testing.T) {
	d := one(t, PiSession, Options{}, "", "",
		`{"type":"message","message":{"role":"user","content":"hi"}}`,
		`{"type":"session","id":"late"}`)
	m := docMap(t, d)
	want := js(t, `{"format":"pi-session","file":"f.jsonl","line":3,"id":"f.jsonl:3","mode":"structured","profile":"default",
		"messages":[{"index":0,"role":"user","text":"hi","has_content":true,"tool_calls":[],"turn":-1,"line":3,"path":"/message","raw":{"role":"user","content":"hi"}}],
		"tools":[],
		"entries":[
			{"index":0,"line":3,"type":"message","raw":{"type":"message","message":{"role":"user","content":"hi"}}},
			{"index":1,"line":4,"type":"session","id":"late","raw":{"type":"session","id":"late"}}],
		"raw":null,`+strings.NewReplacer(`"roles":[]`, `"roles":["user"]`, `"message_keys":[]`, `"message_keys":["content","role"]`).Replace(emptyLookupJSON)+`}`)
	if diff := cmp.Diff(want, any(m)); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestPiSessionHeaderOnly(t *testing.T) {
	d := one(t, PiSession, Options{}, `{"type":"session","id":"x"}`)
	want := js(t, `{"format":"pi-session","file":"f.jsonl","line":1,"id":"x","mode":"structured","profile":"default",
		"messages":[],"tools":[],"entries":[],"raw":{"type":"session","id":"x"},`+emptyLookupJSON+`}`)
	if diff := cmp.Diff(want, goValue(t, d.Value)); diff != "" {
		t.Errorf("document (-want +got):\n%s", diff)
	}
}

func TestPiSessionInline(t *testing.T) {
	d := one(t, PiSession, Options{},
		`{"type":"session","id":"s"}`,
		`{"type":"message","message":{"role":"assistant","content":"<tool_call>{\"name\":\"f\",\"arguments\":{}}</tool_call>"}}`,
		`{"type":"message","message":{"role":"toolResult","content":"<tool_result tool_call_id=\"r1\">ok</tool_result>"}}`)
	m := docMap(t, d)
	if m["mode"] != "inline" {
		t.Fatalf("mode = %v", m["mode"])
	}
	msgs := m["messages"].([]any)
	if diff := cmp.Diff(js(t, `[{"index":0,"id":"r1","name":"f","arguments":{},"has_input":true,"path":"/message/content"}]`), msgs[0].(map[string]any)["tool_calls"]); diff != "" {
		t.Errorf("tool calls (-want +got):\n%s", diff)
	}
	if id := msgs[1].(map[string]any)["tool_call_id"]; id != "r1" {
		t.Errorf("tool_call_id = %v", id)
	}
}

// TestSessionBuilders checks the whole-file builder protocol: nil from Add,
// one document from Finish, nil from Finish without records.
func TestSessionBuilders(t *testing.T) {
	for _, f := range []Format{ProxyLog, PiSession} {
		b := NewBuilder(f, "s.jsonl", Options{})
		if d := b.Finish(); d != nil {
			t.Errorf("%s: Finish without records = %+v", f, d)
		}
		b = NewBuilder(f, "s.jsonl", Options{})
		for line := 1; line <= 3; line++ {
			if d := b.Add(line, obj(t, `{"type":"session","request":{"messages":[]}}`)); d != nil {
				t.Errorf("%s: Add returned %+v", f, d)
			}
		}
		d := b.Finish()
		if d == nil || d.Format != f || d.File != "s.jsonl" || d.Line != 1 {
			t.Errorf("%s: Finish = %+v", f, d)
		}
	}
}
