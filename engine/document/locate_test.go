package document

import "testing"

func TestLocate(t *testing.T) {
	chat := one(t, Chat, Options{}, "", "", "", "", "", "", "",
		`{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":["bad",{"id":"a","function":{"name":"f"}},{"id":"b","function":{"name":"g"}}]}],
		  "tools":[{"type":"function","function":{"name":"f"}},{"name":"g"}]}`)
	proxy := one(t, ProxyLog, Options{}, "",
		`{"request":{"messages":[{"role":"user","content":"a"}]}}`,
		`{"request":{"body":{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}],"tools":[{"name":"t"}]}},
		  "response":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"t","arguments":"{}"}}]}}]}}`,
		`{"event":"x"}`)
	session := one(t, AgentSession, Options{},
		`{"type":"session","id":"s"}`,
		`{"type":"model_change"}`,
		"",
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"x","name":"n","arguments":{}}]}}`)
	tests := []struct {
		name                       string
		doc                        *Document
		message, call, tool, entry int
		wantLine                   int
		wantPath                   string
	}{
		{"chat: nothing named", chat, -1, -1, -1, -1, 8, ""},
		{"chat: message", chat, 0, -1, -1, -1, 8, "/messages/0"},
		{"chat: tool call", chat, 1, 0, -1, -1, 8, "/messages/1/tool_calls/1"},
		{"chat: second tool call", chat, 1, 1, -1, -1, 8, "/messages/1/tool_calls/2"},
		{"chat: tool call out of range falls back to the message", chat, 1, 2, -1, -1, 8, "/messages/1"},
		{"chat: tool call of a message without calls", chat, 0, 0, -1, -1, 8, "/messages/0"},
		{"chat: message wins over tool", chat, 1, -1, 0, -1, 8, "/messages/1"},
		{"chat: tool", chat, -1, -1, 1, -1, 8, "/tools/1"},
		{"chat: message out of range falls back to the tool", chat, 2, 0, 0, -1, 8, "/tools/0"},
		{"chat: tool out of range", chat, -1, -1, 2, -1, 8, ""},
		{"chat: entry of a record without entries", chat, -1, -1, -1, 0, 8, ""},
		{"chat: call without message", chat, -1, 0, -1, -1, 8, ""},
		{"proxy: message of the chosen entry", proxy, 1, -1, -1, -1, 3, "/request/body/messages/1"},
		{"proxy: response tool call", proxy, 2, 0, -1, -1, 3, "/response/choices/0/message/tool_calls/0"},
		{"proxy: tool", proxy, -1, -1, 0, -1, 3, "/request/body/tools/0"},
		{"proxy: entry", proxy, -1, -1, -1, 0, 2, ""},
		{"proxy: last entry", proxy, -1, -1, -1, 2, 4, ""},
		{"proxy: nothing", proxy, -1, -1, -1, -1, 2, ""},
		{"session: entry", session, -1, -1, -1, 0, 2, ""},
		{"session: message", session, 0, -1, -1, -1, 4, "/message"},
		{"session: tool call", session, 0, 0, -1, -1, 4, "/message/content/0"},
		{"session: message wins over entry", session, 0, -1, -1, 1, 4, "/message"},
		{"session: nothing", session, -1, -1, -1, -1, 1, ""},
		{"session: entry out of range", session, -1, -1, -1, 2, 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			line, path := tc.doc.Locate(tc.message, tc.call, tc.tool, tc.entry)
			if line != tc.wantLine || path != tc.wantPath {
				t.Errorf("Locate(%d, %d, %d, %d) = %d, %q; want %d, %q",
					tc.message, tc.call, tc.tool, tc.entry, line, path, tc.wantLine, tc.wantPath)
			}
		})
	}
}

func TestAccessors(t *testing.T) {
	d := one(t, Chat, Options{}, `{"messages":[{"role":"user"}],"tools":[{"name":"a"},{"name":"b"}]}`)
	if n := d.Messages().Len(); n != 1 {
		t.Errorf("Messages().Len() = %d", n)
	}
	if n := d.Tools().Len(); n != 2 {
		t.Errorf("Tools().Len() = %d", n)
	}
	if n := d.Entries().Len(); n != 0 {
		t.Errorf("Entries().Len() = %d", n)
	}
	var empty Document
	if empty.Messages() != nil || empty.Tools() != nil || empty.Entries() != nil {
		t.Error("a document without a value has arrays")
	}
	if line, path := empty.Locate(0, 0, 0, 0); line != 0 || path != "" {
		t.Errorf("Locate on an empty document = %d, %q", line, path)
	}
}
