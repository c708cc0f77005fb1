package lint

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// A forced format checks that each record (a session's first line) fits it.
func TestCheckForcedFormat(t *testing.T) {
	l := linter(t)
	tests := []struct {
		name string
		unit Unit
		want []string
	}{
		{"a record that does not fit a forced contract", Unit{File: "f", Format: document.Contract, Forced: true, Records: recs(`{"foo":1}`)},
			[]string{"f:1 format-mismatch --format contract: the record does not fit: it lacks a conversation_id or user_id member (its keys: {foo})"}},
		{"fitting records are checked", Unit{File: "f", Format: document.Chat, Forced: true, Records: recs(`{"messages":[{"role":"user","content":"x"}]}`)},
			[]string{"f:1 no-user user"}},
		{"a session whose first line is no header is not checked", Unit{File: "s", Format: document.PiSession, Forced: true, Records: recs(
			`{"type":"user","message":{"role":"user","content":"x"}}`, `{"type":"message","message":{"role":"user","content":"x"}}`)},
			[]string{`s:1 format-mismatch --format pi-session: the file does not fit: it lacks a session header {"type": "session", "id": …} as its first line (its keys: {message, type})`}},
		{"a session's first object decides, after a broken line", Unit{File: "s", Format: document.PiSession, Forced: true, Records: recs(
			`{oops`, `{"type":"user"}`, `{"type":"message","message":{"role":"user","content":"x"}}`)},
			[]string{"s:1 jsonl-syntax invalid JSON: invalid character 'o' looking for beginning of object key string (byte 2)",
				`s:2 format-mismatch --format pi-session: the file does not fit: it lacks a session header {"type": "session", "id": …} as its first line (its keys: {type})`}},
		{"detected formats are not re-checked", Unit{File: "f", Format: document.Chat, Records: recs(`{"foo":1}`)}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range l.Check(context.Background(), tc.unit) {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Rule, f.Message))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// A hit naming an element the document lacks is a policy error naming the
// rule and the record.
func TestPlaceMissingTarget(t *testing.T) {
	d := document.NewBuilder(document.Chat, "f", document.Options{}).Add(4, first(t, `{"id":"c1","messages":[{"role":"user","content":"a"}]}`))
	got := Place(d, []policy.Hit{{Rule: "r", Pack: "p", Target: "/messages/5", Message: "m"}})
	if len(got) != 1 || got[0].Rule != RulePolicyError || got[0].Record != "c1" || got[0].Line != 4 ||
		got[0].Message != `record c1: pack p: rule r: a finding names "/messages/5", which the document does not have` {
		t.Errorf("got %+v", got)
	}
}

func first(t *testing.T, s string) ast.Object {
	t.Helper()
	o, bad := Decode("f", jsonl.Record{Data: []byte(s)})
	if bad != nil {
		t.Fatal(bad.Message)
	}
	return o
}
