package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLocate(t *testing.T) {
	chat := one(t, Chat, Options{}, "", "", "", "", "", "", "",
		`{"messages":[{"role":"user","content":"q"},{"role":"assistant","tool_calls":["bad",{"id":"a","function":{"name":"f"}},{"id":"b","function":{"name":"g"}}]}],
		  "tools":[{"type":"function","function":{"name":"f"}},{"name":"g"}]}`)
	proxy := one(t, ProxyLog, Options{}, "",
		`{"request":{"messages":[{"role":"user","content":"a"}]}}`,
		`{"request":{"body":{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":"b"}],"tools":[{"name":"t"}]}},
		  "response":{"choices":[{"message":{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"t","arguments":"{}"}}]}}]}}`,
		`{"event":"x"}`)
	session := one(t, PiSession, Options{},
		`{"type":"session","id":"s"}`,
		`{"type":"model_change"}`,
		"",
		`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"x","name":"n","arguments":{}}]}}`)
	type loc struct {
		Line int
		Path string
		OK   bool
	}
	tests := []struct {
		name   string
		doc    *Document
		target Target
		want   loc
	}{
		{"chat: the document", chat, "", loc{8, "", true}},
		{"chat: message", chat, "/messages/0", loc{8, "/messages/0", true}},
		{"chat: tool call", chat, "/messages/1/tool_calls/0", loc{8, "/messages/1/tool_calls/1", true}},
		{"chat: second tool call", chat, "/messages/1/tool_calls/1", loc{8, "/messages/1/tool_calls/2", true}},
		{"chat: tool call out of range stops at the message", chat, "/messages/1/tool_calls/2", loc{8, "/messages/1", false}},
		{"chat: tool call of a message without calls", chat, "/messages/0/tool_calls/0", loc{8, "/messages/0", false}},
		{"chat: tool", chat, "/tools/1", loc{8, "/tools/1", true}},
		{"chat: message out of range", chat, "/messages/2", loc{8, "", false}},
		{"chat: tool out of range", chat, "/tools/2", loc{8, "", false}},
		{"chat: entry of a record without entries", chat, "/entries/0", loc{8, "", false}},
		{"chat: not a target", chat, "/messages/x", loc{8, "", false}},
		{"chat: unknown collection", chat, "/raw/0", loc{8, "", false}},
		{"proxy: message of the chosen entry", proxy, "/messages/1", loc{3, "/request/body/messages/1", true}},
		{"proxy: response tool call", proxy, "/messages/2/tool_calls/0", loc{3, "/response/choices/0/message/tool_calls/0", true}},
		{"proxy: tool", proxy, "/tools/0", loc{3, "/request/body/tools/0", true}},
		{"proxy: entry", proxy, "/entries/0", loc{2, "", true}},
		{"proxy: last entry", proxy, "/entries/2", loc{4, "", true}},
		{"proxy: the document", proxy, "", loc{2, "", true}},
		{"session: entry", session, "/entries/0", loc{2, "", true}},
		{"session: message", session, "/messages/0", loc{4, "/message", true}},
		{"session: tool call", session, "/messages/0/tool_calls/0", loc{4, "/message/content/0", true}},
		{"session: the document", session, "", loc{1, "", true}},
		{"session: entry out of range", session, "/entries/2", loc{1, "", false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got loc
			got.Line, got.Path, got.OK = tc.doc.Locate(tc.target)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Locate(%q) (-want +got):\n%s", tc.target, diff)
			}
		})
	}
}

func TestTargetOf(t *testing.T) {
	tests := []struct {
		message, call, tool, entry int
		want                       Target
	}{
		{-1, -1, -1, -1, ""},
		{3, -1, -1, -1, "/messages/3"},
		{3, 1, -1, -1, "/messages/3/tool_calls/1"},
		{3, -1, 2, 4, "/messages/3"},
		{-1, 1, -1, -1, ""},
		{-1, -1, 2, 4, "/tools/2"},
		{-1, -1, -1, 4, "/entries/4"},
	}
	for _, tc := range tests {
		got := TargetOf(tc.message, tc.call, tc.tool, tc.entry)
		if got != tc.want {
			t.Errorf("TargetOf(%d, %d, %d, %d) = %q, want %q", tc.message, tc.call, tc.tool, tc.entry, got, tc.want)
		}
		if !got.Valid() {
			t.Errorf("%q is not Valid", got)
		}
		named := func(i int, ok bool) int {
			if !ok {
				return -1
			}
			return i
		}
		// Each accessor gives back the index that TargetOf kept.
		want := [4]int{-1, -1, -1, -1}
		switch {
		case tc.message >= 0:
			want[0] = tc.message
			if tc.call >= 0 {
				want[1] = tc.call
			}
		case tc.tool >= 0:
			want[2] = tc.tool
		case tc.entry >= 0:
			want[3] = tc.entry
		}
		if back := [4]int{named(got.Message()), named(got.ToolCall()), named(got.Tool()), named(got.Entry())}; back != want {
			t.Errorf("%q: indexes %v, want %v", got, back, want)
		}
	}
	for _, bad := range []Target{"messages/1", "/messages", "/messages/-1", "/messages/1/tool_calls", "/tools/1/tool_calls/0", "/x/1", "/messages/1/x/2"} {
		if bad.Valid() {
			t.Errorf("%q is Valid", bad)
		}
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
	if line, path, ok := empty.Locate("/messages/0"); line != 0 || path != "" || ok {
		t.Errorf("Locate on an empty document = %d, %q, %v", line, path, ok)
	}
}
