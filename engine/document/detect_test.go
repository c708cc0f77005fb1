package document

import (
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name string
		rec  string
		want Format // "" for unrecognized
	}{
		{"chat", `{"messages":[{"role":"user","content":"hi"}]}`, Chat},
		{"chat with tools", `{"messages":[],"tools":[],"parallel_tool_calls":false}`, Chat},
		{"chat with messages null", `{"messages":null}`, Chat},
		{"chat with chat_id", `{"chat_id":"c1","created_at":"2024-01-01","messages":[],"metadata":{}}`, Chat},
		{"contract", `{"conversation_id":"c1","user_id":"u1","timestamp":"t","messages":[],"metadata":{}}`, Contract},
		{"contract by conversation_id only", `{"conversation_id":"c1"}`, Contract},
		{"contract by user_id only", `{"user_id":"u1","messages":[]}`, Contract},
		{"proxy-log", `{"timestamp":"t","session_id":"s","request":{"messages":[],"tools":[]},"response":{}}`, ProxyLog},
		{"proxy-log with body (gateway)", `{"id":"x","request":{"method":"POST","body":{"model":"m","messages":[{"role":"user","content":"Hi"}]}},"response":{"status":401}}`, ProxyLog},
		{"proxy-log beats contract and chat", `{"conversation_id":"c","messages":[],"request":{"messages":[]}}`, ProxyLog},
		{"request without messages is not a proxy log", `{"request":{"model":"m"},"messages":[]}`, Chat},
		{"request body without messages", `{"request":{"body":{"model":"m"}}}`, ""},
		{"request body null", `{"request":{"method":"GET","body":null}}`, ""},
		{"request not an object", `{"request":"GET /","messages":[]}`, Chat},
		{"pi-session", `{"type":"session","id":"abc","timestamp":"t","cwd":"/"}`, PiSession},
		{"pi-session beats everything", `{"type":"session","messages":[],"request":{"messages":[]},"conversation_id":"c"}`, PiSession},
		{"type not session", `{"type":"message","message":{"role":"user"}}`, ""},
		{"type not a string", `{"type":1}`, ""},
		{"empty object", `{}`, ""},
		{"ShareGPT", `{"conversations":[{"from":"human","value":"hi"},{"from":"gpt","value":"hello"}]}`, ShareGPT},
		{"ShareGPT with id and tools string", `{"id":"x","conversations":[],"tools":"[]"}`, ShareGPT},
		{"ShareGPT with system", `{"system":"Be brief.","conversations":[{"from":"human","value":"hi"}]}`, ShareGPT},
		{"ShareGPT conversations not a list", `{"conversations":"hi"}`, ""},
		{"ShareGPT beside messages", `{"conversations":[],"messages":[]}`, ShareGPT},
		{"Gemini tuning record", `{"systemInstruction":{"parts":[{"text":"Be brief."}]},"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"hello"}]}]}`, Gemini},
		{"Gemini batch request line", `{"key":"r1","request":{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}}`, Gemini},
		{"Gemini request without contents", `{"request":{"model":"gemini"}}`, ""},
		{"request with messages stays a proxy log", `{"request":{"messages":[],"contents":[]}}`, ProxyLog},
		{"Anthropic batch request", `{"custom_id":"r1","params":{"model":"m","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}}`, AnthropicBatch},
		{"Anthropic batch result", `{"custom_id":"r1","result":{"type":"succeeded","message":{"role":"assistant","content":[]}}}`, AnthropicBatch},
		{"Anthropic batch result errored", `{"custom_id":"r1","result":{"type":"errored","error":{}}}`, AnthropicBatch},
		{"custom_id alone", `{"custom_id":"r1"}`, ""},
		{"custom_id with messages is chat", `{"custom_id":"r1","messages":[]}`, Chat},
		{
			"Claude Code line",
			`{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/tmp","sessionId":"s","version":"1.0","type":"user","message":{"role":"user","content":"hi"},"uuid":"u","timestamp":"t"}`,
			ClaudeCode,
		},
		{"Claude Code snapshot line", `{"type":"file-history-snapshot","messageId":"m","snapshot":{},"isSnapshotUpdate":false}`, ClaudeCode},
		{"Claude Code summary line", `{"type":"summary","summary":"s","leafUuid":"u"}`, ClaudeCode},
		{"Claude Code queue operation", `{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"s","content":"x"}`, ClaudeCode},
		{"summary without leafUuid", `{"type":"summary","summary":"s"}`, ""},
		{"user entry without links", `{"type":"user","message":{"role":"user","content":"hi"}}`, ""},
		{"Codex rollout line", `{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/"}}`, Codex},
		{"Codex response item", `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[]}}`, Codex},
		{"Codex type without payload", `{"timestamp":"t","type":"response_item"}`, ""},
		{"batch input", `{"custom_id":"request-1","method":"POST","url":"/v1/chat/completions","body":{"model":"m","messages":[{"role":"user","content":"hi"}]}}`, OpenAIBatchInput},
		{"batch input embeddings", `{"custom_id":"e1","method":"POST","url":"/v1/embeddings","body":{"model":"m","input":"hi"}}`, OpenAIBatchInput},
		{"batch output", `{"id":"b","custom_id":"request-1","response":{"status_code":200,"body":{"choices":[]}},"error":null}`, OpenAIBatchOutput},
		{"batch output failed", `{"id":"b","custom_id":"request-1","response":null,"error":{"code":"batch_expired","message":"x"}}`, OpenAIBatchOutput},
		{"batch output with request and messages stays a batch", `{"custom_id":"r","response":{},"request":{"messages":[]}}`, OpenAIBatchOutput},
		{"goose metadata", `{"working_dir":"/","description":"d","message_count":2}`, GooseSession},
		{"goose message line", `{"role":"user","created":1,"content":[{"type":"text","text":"hi"}]}`, ""},
		{"working_dir without message_count", `{"working_dir":"/"}`, ""},
		{"Hermes example", `{"example":"SYSTEM: ..."}`, ""},
		// Strict shapes: the members are there, but not messages chat reads.
		{"Gemini CLI session is not chat", `{"sessionId":"s","projectHash":"h","messages":[{"id":"1","type":"user","content":"hi"},{"id":"2","type":"gemini","content":"hello"}]}`, GeminiCLI},
		{"LangChain dump is not chat", `{"messages":[{"type":"human","content":"hi"},{"type":"ai","content":"","tool_calls":[]}]}`, LangChain},
		{"chat with one message lacking a role is chat", `{"messages":[{"content":"hi"},{"role":"assistant","content":"hello"}]}`, Chat},
		{"chat with messages of strings is chat", `{"messages":["hi"]}`, Chat},
		{"preference record whose input has no roles: role-unknown's to report", `{"input":{"messages":[{"type":"human","content":"hi"}]},"preferred_output":[]}`, Preference},
		{"Agents SDK run state is not contract", `{"$schemaVersion":"1.13","conversation_id":null,"generated_items":[]}`, ""},
		{"contract with null id and messages", `{"conversation_id":null,"messages":[{"role":"user","content":"hi"}]}`, Contract},
		{"contract with null id and no messages", `{"conversation_id":null}`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Detect(obj(t, tc.rec))
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("Detect = %q, %v; want %q, %v", got, ok, tc.want, tc.want != "")
			}
		})
	}
}

func TestKeys(t *testing.T) {
	tests := []struct{ rec, want string }{
		{`{}`, ""},
		{`{"b":1,"a":2}`, "a, b"},
		{`{"conversations":[],"id":"x","tools":"[]"}`, "conversations, id, tools"},
		{`{"i":0,"h":0,"g":0,"f":0,"e":0,"d":0,"c":0,"b":0,"a":0}`, "a, b, c, d, e, f, g, h, …"},
		{`{"h":0,"g":0,"f":0,"e":0,"d":0,"c":0,"b":0,"a":0}`, "a, b, c, d, e, f, g, h"},
	}
	for _, tc := range tests {
		if got := Keys(obj(t, tc.rec)); got != tc.want {
			t.Errorf("Keys(%s) = %q, want %q", tc.rec, got, tc.want)
		}
	}
}

func TestParseFormatAndPerFile(t *testing.T) {
	for _, f := range Formats {
		got, ok := ParseFormat(string(f))
		if !ok || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, ok)
		}
	}
	for _, s := range []string{"", "Chat", "ShareGPT", "proxy_log", "openai-batch"} {
		if _, ok := ParseFormat(s); ok {
			t.Errorf("ParseFormat(%q) accepted", s)
		}
	}
	perFile := map[Format]bool{Chat: false, Contract: false, ProxyLog: true, PiSession: true,
		GooseSession: true, ShareGPT: false, Gemini: false, OpenAIBatchInput: false, OpenAIBatchOutput: false, AnthropicBatch: false}
	for f, want := range perFile {
		if got := f.PerFile(); got != want {
			t.Errorf("%s.PerFile() = %v, want %v", f, got, want)
		}
	}
}

// Every adapter says what a record lacks when a forced format does not fit.
func TestFits(t *testing.T) {
	tests := []struct {
		format  Format
		rec     string
		missing string
	}{
		{Chat, `{"messages":[]}`, ""},
		{Chat, `{"foo":1}`, "a messages member"},
		{Contract, `{"conversation_id":"c","messages":[]}`, ""},
		{Contract, `{"foo":1}`, "a conversation_id or user_id member"},
		{Contract, `{"messages":[]}`, "a conversation_id or user_id member"},
		{ProxyLog, `{"request":{"body":{"messages":[]}}}`, ""},
		{ProxyLog, `{"messages":[]}`, "a request object with messages (or request.body.messages)"},
		{PiSession, `{"type":"session"}`, ""},
		{PiSession, `{"type":"user","message":{}}`, `a session header {"type": "session", "id": …} as its first line`},
	}
	for _, tc := range tests {
		if got := Lookup(tc.format).Misfit(obj(t, tc.rec)); got != tc.missing {
			t.Errorf("%s Misfit(%s) = %q, want %q", tc.format, tc.rec, got, tc.missing)
		}
	}
	for _, a := range Adapters() {
		if a.Fits == nil && a.Shape == "" {
			t.Errorf("adapter %s says neither its Shape nor how a record Fits", a.Format)
		}
	}
}

// TestResemble: each shape chatlint does not read is named by its own
// example, and no adapter claims it. When an adapter for one of them is
// registered, this fails for its example: delete the entry from
// unreadShapes (resemble.go).
func TestResemble(t *testing.T) {
	for _, u := range unreadShapes {
		t.Run(u.Like, func(t *testing.T) {
			rec := obj(t, u.Example)
			if f, ok := Detect(rec); ok {
				t.Fatalf("%s is read as %s: delete its entry from unreadShapes", u.Like, f)
			}
			like, do, ok := Resemble(rec)
			if !ok || like != u.Like || do == "" {
				t.Errorf("Resemble = %q, %q, %v; want %q", like, do, ok, u.Like)
			}
		})
	}
	for _, rec := range []string{`{}`, `{"foo":1}`, `{"role":"user","created":1,"content":[]}`} {
		if like, _, ok := Resemble(obj(t, rec)); ok {
			t.Errorf("Resemble(%s) = %q, want none", rec, like)
		}
	}
}
