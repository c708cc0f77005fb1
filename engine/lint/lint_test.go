package lint

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/finding"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

const pack = `package chatlint.t

# METADATA
# custom:
#   id: no-user
# description: a user message is reported
deny contains {"rule": "no-user", "msg": "user", "message_index": i} if {
	some i, m in input.messages
	m.role == "user"
}
`

func linter(t *testing.T) *Linter {
	t.Helper()
	eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "t", Rego: []policy.File{{Name: "t.rego", Source: []byte(pack)}}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return New(eng, document.Options{})
}

func recs(lines ...string) []jsonl.Record {
	out := make([]jsonl.Record, len(lines))
	for i, l := range lines {
		out[i] = jsonl.Record{Line: i + 1, Data: []byte(l)}
	}
	return out
}

func TestCheck(t *testing.T) {
	l := linter(t)
	user := `{"messages":[{"role":"user","content":"hi"}]}`
	first, _ := Decode("f", jsonl.Record{Data: []byte(user)})
	tests := []struct {
		name string
		unit Unit
		want []string
	}{
		{"a record", Unit{File: "f", Format: document.Chat, Records: recs(user)}, []string{"f:1 no-user /messages/0"}},
		{"not JSON", Unit{File: "f", Format: document.Chat, Records: recs(`{"messages":`)}, []string{"f:1 jsonl-syntax "}},
		{"not an object", Unit{File: "f", Format: document.Chat, Records: recs(`[1]`)}, []string{"f:1 jsonl-syntax "}},
		{"unrecognized format: syntax only", Unit{File: "f", Records: recs(user, `nope`)}, []string{"f:2 jsonl-syntax "}},
		{"a session: one document, bad lines reported", Unit{File: "s", Format: document.PiSession, Records: recs(
			`{"type":"session","id":"s"}`, `{`, `{"type":"message","message":{"role":"user","content":"x"}}`)},
			[]string{"s:2 jsonl-syntax ", "s:3 no-user /message"}},
		// First is used instead of decoding Records[0] again.
		{"first already decoded", Unit{File: "f", Format: document.Chat, Records: recs(`not decoded`), First: first}, []string{"f:1 no-user /messages/0"}},
		{"nothing", Unit{File: "f", Format: document.Chat}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range l.Check(context.Background(), tc.unit) {
				got = append(got, fmt.Sprintf("%s:%d %s %s", f.File, f.Line, f.Rule, f.Path))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDetect(t *testing.T) {
	tests := []struct {
		data         string
		format       document.Format
		unrecognized bool
		ok           bool
	}{
		{`{"messages":[]}`, document.Chat, false, true},
		{`{"type":"session","id":"x"}`, document.PiSession, false, true},
		{`{"dialogue":[]}`, "", true, true},
		{`[1]`, "", false, false},
		{`{`, "", false, false},
	}
	for _, tc := range tests {
		f, obj, u, ok := Detect("f", jsonl.Record{Line: 3, Data: []byte(tc.data)})
		if f != tc.format || (u != nil) != tc.unrecognized || ok != tc.ok || ok != (obj != nil) {
			t.Errorf("Detect(%s) = %q, %v, %v, %v", tc.data, f, obj, u, ok)
		}
		if u != nil && (u.Line != 3 || u.Rule != RuleUnrecognized) {
			t.Errorf("unrecognized finding %+v", u)
		}
	}
}

func TestPlace(t *testing.T) {
	obj := ast.MustParseTerm(`{"messages":[{"role":"user","content":"a"},{"role":"assistant","tool_calls":[{"id":"c"}]}]}`).Value.(ast.Object)
	d := document.NewBuilder(document.Chat, "f", document.Options{}).Add(4, obj)
	hits := []policy.Hit{
		{Rule: "a", Target: "/messages/1/tool_calls/0"},
		{Rule: "b", Target: ""},
		{Rule: "c", Target: "/messages/0", Path: "/messages/0/content"},
	}
	var got []string
	for _, f := range Place(d, hits) {
		mi := -1
		if f.MessageIndex != nil {
			mi = *f.MessageIndex
		}
		got = append(got, fmt.Sprintf("%s %d %s %d", f.Rule, f.Line, f.Path, mi))
	}
	want := []string{"a 4 /messages/1/tool_calls/0 1", "b 4  -1", "c 4 /messages/0/content 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestRecordHash checks the content identity lint gives findings of records
// without an id: the hash of the record they name (for a session without an
// id, its first line), nothing for a record with an id; and none at all
// unless the run asks for them (HashRecords).
func TestRecordHash(t *testing.T) {
	l := linter(t)
	bare := `{"messages":[{"role":"user","content":"hi"}]}`
	for _, f := range l.Check(context.Background(), Unit{File: "f", Format: document.Chat, Records: recs(bare)}) {
		if f.RecordHash != "" {
			t.Errorf("a run that did not ask for record hashes got %q on %s", f.RecordHash, f.Rule)
		}
	}
	l.HashRecords(true)
	user := `{"messages":[{"role":"user","content":"hi"}]}`
	withID := `{"id":"c-1","messages":[{"role":"user","content":"hi"}]}`
	element := "{\n  \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]\n}"
	header := `{"type":"session"}`
	session := recs(header, `{"type":"message","message":{"role":"user","content":"x"}}`)
	tests := []struct {
		name string
		unit Unit
		want []string
	}{
		{"no id: the line", Unit{File: "f", Format: document.Chat, Records: []jsonl.Record{{Line: 7, Data: []byte(user), Raw: []byte(user + " \r\n")}}},
			[]string{"f:7 " + finding.HashRecord([]byte(user))}},
		{"an id: none", Unit{File: "f", Format: document.Chat, Records: recs(withID)}, []string{"f:1 "}},
		{"not JSON: the line", Unit{File: "f", Format: document.Chat, Records: recs(`{"messages":`)},
			[]string{"f:1 " + finding.HashRecord([]byte(`{"messages":`))}},
		{"a .json element: all of it", Unit{File: "f.json", Format: document.Chat, Records: []jsonl.Record{{Line: 2, Data: []byte(element), Raw: []byte(element)}}},
			[]string{"f.json:3 " + finding.HashRecord([]byte(element))}},
		{"a session without an id: its first line", Unit{File: "s", Format: document.PiSession, Records: session},
			[]string{"s:2 " + finding.HashRecord([]byte(header))}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, f := range l.Check(context.Background(), tc.unit) {
				got = append(got, fmt.Sprintf("%s:%d %s", f.File, f.Line, f.RecordHash))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestDecodeMessages checks what a record that is not checked is told:
// invalid JSON as such, and valid JSON with a number OPA refuses as that.
func TestDecodeMessages(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"n": 1e999999}`, "the record was not checked: number 1e999999 is out of the range the policy engine evaluates (byte 7)"},
		{`{"n": 1e99}`, ""},
		{`{"n": }`, "invalid JSON: invalid character '}' looking for beginning of value (byte 7)"},
	} {
		_, f := Decode("f", jsonl.Record{Line: 1, Data: []byte(tc.data)})
		got := ""
		if f != nil {
			got = f.Message
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.data, got, tc.want)
		}
	}
}
