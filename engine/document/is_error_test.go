package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIsError: a tool result's explicit error flag is normalized as is_error
// only where the format carries one and it is a boolean — pi/OpenClaw
// isError, an Anthropic tool_result block's is_error — so rules can tell "no
// flag" (read the payload) from "flag says no error".
func TestIsError(t *testing.T) {
	t.Run("pi-session", func(t *testing.T) {
		d := one(t, PiSession, Options{},
			`{"type":"session","id":"s"}`,
			`{"type":"message","message":{"role":"assistant","content":[{"type":"toolCall","id":"a","name":"read","arguments":{}},{"type":"toolCall","id":"b","name":"bash","arguments":{}},{"type":"toolCall","id":"c","name":"x","arguments":{}},{"type":"toolCall","id":"d","name":"x","arguments":{}}]}}`,
			`{"type":"message","message":{"role":"toolResult","toolCallId":"a","content":[{"type":"text","text":"{\"error\": \"#f00\"}"}],"isError":false}}`,
			`{"type":"message","message":{"role":"toolResult","toolCallId":"b","content":[{"type":"text","text":"exit 1"}],"isError":true}}`,
			`{"type":"message","message":{"role":"toolResult","toolCallId":"c","content":"x","isError":"yes"}}`,
			`{"type":"message","message":{"role":"toolResult","toolCallId":"d","content":"x","is_error":true}}`,
		)
		got := project(list(t, d, "messages"), "index", "is_error")
		want := asMaps(t, js(t, `[{"index":0},{"index":1,"is_error":false},{"index":2,"is_error":true},{"index":3},{"index":4}]`))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
	t.Run("anthropic and openai chat", func(t *testing.T) {
		d := one(t, Chat, Options{}, `{"messages":[`+
			`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}},{"type":"tool_use","id":"t2","name":"f","input":{}},{"type":"tool_use","id":"t3","name":"f","input":{}}]},`+
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok","is_error":false},{"type":"tool_result","tool_use_id":"t2","content":"boom","is_error":true},{"type":"tool_result","tool_use_id":"t3","content":"x"}]},`+
			`{"role":"tool","tool_call_id":"t9","content":"x","is_error":true}]}`)
		got := project(list(t, d, "messages"), "index", "is_error")
		want := asMaps(t, js(t, `[{"index":0},{"index":1,"is_error":false},{"index":2,"is_error":true},{"index":3},{"index":4}]`))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}
