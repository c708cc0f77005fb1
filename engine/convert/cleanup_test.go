package convert

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/jsonv"
	"github.com/chatlint/chatlint/engine/policy"
)

// TestCleanEntry runs the goose pack (and, where given, a pack of its own)
// through fix over one entry each and compares the messages left, as
// convert writes them.
func TestCleanEntry(t *testing.T) {
	cases := []struct {
		name string
		pack string // Rego of a second pack, after goose
		msgs string // the entry's request messages
		resp string // its response, if any
		want string // the messages left; "drop" when the entry is dropped
		err  string
	}{
		{
			name: "nothing to clean",
			msgs: `[{"role": "user", "content": "hi", "score": NaN}]`,
			want: `[{"role": "user", "content": "hi", "score": NaN}]`,
		},
		{
			name: "every goose message rule, non-finite numbers kept",
			msgs: `[{"role": "system", "content": "You are a general-purpose AI agent called goose.", "w": Infinity}, {"role": "user", "content": " <info-msg>now</info-msg>"}, {"role": "assistant", "content": " "}, {"role": "assistant", "content": "hi", "x": -Infinity}]`,
			want: `[{"role": "system", "content": "You are a general-purpose AI agent", "w": Infinity}, {"role": "assistant", "content": "hi", "x": -Infinity}]`,
		},
		{
			name: "title request",
			msgs: `[{"role": "user", "content": "<info-msg>x</info-msg>"}, {"role": "system", "content": "Reply with only a description in four words or less"}, {"role": "user", "content": "Here are the first few user messages: fix"}]`,
			resp: `{"id": "r", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Fixing it"}}]}`,
			want: "drop",
		},
		{
			name: "a user message split into tool results keeps its other blocks",
			msgs: `[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"}, {"type": "text", "text": "and"}]}, {"role": "user", "content": "<info-msg>x</info-msg>"}, {"role": "assistant", "content": "ok"}]`,
			want: `[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "content": "1"}, {"type": "text", "text": "and"}]}, {"role": "assistant", "content": "ok"}]`,
		},
		{
			name: "a second pack sees goose's result and may insert",
			pack: `package chatlint.team
actions contains {"op": "insert_message", "target": "/messages/0", "position": "before", "message": {"content": "Be brief.", "role": "system", "extra": null}, "rule": "add-system"} if {
	input.messages[0].role != "system"
}`,
			msgs: `[{"role": "user", "content": "<info-msg>x</info-msg>"}, {"role": "user", "content": "hi"}]`,
			want: `[{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]`,
		},
		{
			name: "a pack that leaves an invalid message",
			pack: `package chatlint.team
actions contains {"op": "set_content", "message_index": 0, "content": 5, "rule": "bad"} if true`,
			msgs: `[{"role": "user", "content": "hi"}]`,
			err:  "f.jsonl:1: cleanup: the cleanup left an invalid message: request.messages[0].content is a number, not a string or a list",
		},
		{
			name: "conflicting actions",
			pack: `package chatlint.team
actions contains {"op": "set_content", "message_index": 0, "content": "a", "rule": "a"} if true
actions contains {"op": "drop_message", "message_index": 0, "rule": "b"} if true`,
			msgs: `[{"role": "user", "content": "hi"}]`,
			err:  "f.jsonl:1: cleanup: conflicting actions on /messages/0",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := &Options{CleanupGoose: true}
			if c.pack != "" {
				o.Cleanup = []*policy.Pack{{Name: "team", Rego: []policy.File{{Name: "team.rego", Source: []byte(c.pack)}}}}
			}
			engs, err := newCleanupEngines(context.Background(), o)
			if err != nil {
				t.Fatal(err)
			}
			line := `{"timestamp": "2026-01-01T00:00:00Z", "session_id": "s", "request": {"model": "m", "messages": ` + c.msgs + `}`
			if c.resp != "" {
				line += `, "response": ` + c.resp
			}
			line += "}"
			entries, skipped := parseSession([]byte(line + "\n"))
			if len(entries) != 1 {
				t.Fatalf("entry not parsed: %v", skipped)
			}
			e, drop, err := engs.cleaner().clean(context.Background(), entries[0], "f.jsonl")
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error = %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := "drop"
			if !drop {
				msgs := make([]jsonv.Value, len(e.Messages))
				for i, m := range e.Messages {
					msgs[i] = m
				}
				got = string(jsonv.Marshal(msgs, jsonv.Python))
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}
