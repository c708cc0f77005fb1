package document

import (
	"slices"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// TestClaudeCodeRawLeavesOutUnread: when no rule reads an entry's cwd or
// toolUseResult, the lines are decoded without them, as views where the
// messages are views (no rule on topdown reads the session): the document,
// once materialized, is the one the whole lines make but for those members
// of the entries' raw; when a rule reads one, it is kept.
func TestClaudeCodeRawLeavesOutUnread(t *testing.T) {
	lines := []string{
		`{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s-1","type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","timestamp":"t1"}`,
		`{"parentUuid":"u1","isSidechain":false,"cwd":"/w","sessionId":"s-1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"reading"}],"stop_reason":null,"usage":{"output_tokens":1}},"uuid":"a0","timestamp":"t2"}`,
		`{"parentUuid":"a0","isSidechain":false,"cwd":"/w","sessionId":"s-1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{}}],"stop_reason":"tool_use"},"uuid":"a1","timestamp":"t2"}`,
		`{"parentUuid":"a1","isSidechain":false,"cwd":"/w","sessionId":"s-1","type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]},"toolUseResult":{"stdout":"x"},"uuid":"r1","timestamp":"t3"}`,
	}
	build := func(f *Fields, p *astjson.Projection) *Document {
		b := NewBuilder(ClaudeCode, "s.jsonl", Options{Fields: f})
		for i, l := range lines {
			v, err := astjson.DecodeProjected([]byte(l), p)
			if err != nil {
				t.Fatal(err)
			}
			b.Add(i+1, v.(ast.Object))
		}
		return b.Finish()
	}
	whole := build(nil, nil).Value
	for _, tc := range []struct {
		name  string
		read  string // the one raw member besides type and message the rules read
		plain bool   // messages as OPA objects (topdown reads the document)
		gone  []string
	}{
		{"cwd and toolUseResult unread", "", false, []string{"cwd", "toolUseResult"}},
		{"cwd read", "cwd", false, []string{"toolUseResult"}},
		{"plain messages", "", true, []string{"cwd", "toolUseResult"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := NewFields(func(path ...string) bool {
				if len(path) == 4 && path[0] == "entries" && path[2] == "raw" {
					return path[3] == "type" || path[3] == "message" || path[3] == tc.read
				}
				return true
			})
			if tc.plain {
				f = f.PlainMessages()
			}
			p := Projection(ClaudeCode, Options{Fields: f})
			if p == nil {
				t.Fatal("no projection")
			}
			if p.View == tc.plain {
				t.Errorf("projection view %v, want %v", p.View, !tc.plain)
			}
			d := build(f, p)
			if !tc.plain {
				entries := arrayField(d.Value, keyEntries)
				for i := 0; i < entries.Len(); i++ {
					e, ok := entries.Elem(i).Value.(*astjson.ObjectView)
					if !ok {
						t.Fatalf("entry %d is not a view", i)
					}
					if _, ok := e.Get(KeyRaw).Value.(*astjson.ObjectView); !ok {
						t.Fatalf("line %d is not a view", i+1)
					}
				}
				msgs := arrayField(d.Value, KeyMessages)
				for i := 0; i < msgs.Len(); i++ {
					if _, ok := msgs.Elem(i).Value.(*MessageValue); !ok {
						t.Fatalf("message %d is not a MessageValue", i)
					}
				}
			}
			got := d.Materialized()
			materializedHoldsNoViews(t, got)
			want := whole.Copy()
			entries := arrayField(want, keyEntries)
			for i := 0; i < entries.Len(); i++ {
				raw := entries.Elem(i).Value.(ast.Object).Get(KeyRaw).Value.(ast.Object)
				kept := ast.NewObject()
				raw.Foreach(func(k, v *ast.Term) {
					for _, g := range tc.gone {
						if k.Value.Compare(ast.String(g)) == 0 {
							return
						}
					}
					kept.Insert(k, v)
				})
				entries.Elem(i).Value.(ast.Object).Insert(KeyRaw, ast.NewTerm(kept))
			}
			if got.Compare(want) != 0 || got.String() != want.String() {
				t.Errorf("document\n got %v\nwant %v", got, want)
			}
		})
	}
}

// TestClaudeCodeEntriesLeaveOutUnread: an entry's members no rule reads
// (message_id, timestamp, session_id, raw) are left out; the others stay.
func TestClaudeCodeEntriesLeaveOutUnread(t *testing.T) {
	line := `{"parentUuid":null,"isSidechain":false,"sessionId":"s-1","type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"hi"}]},"uuid":"a1","timestamp":"t1"}`
	v, err := astjson.Decode([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	for _, unread := range []string{"message_id", "timestamp", "session_id", "raw"} {
		f := NewFields(func(path ...string) bool { return !(len(path) == 3 && path[0] == "entries" && path[2] == unread) })
		b := NewBuilder(ClaudeCode, "s.jsonl", Options{Fields: f})
		b.Add(1, v.(ast.Object))
		e := arrayField(b.Finish().Value, keyEntries).Elem(0).Value.(ast.Object)
		var got []string
		for _, k := range e.Keys() {
			got = append(got, string(k.Value.(ast.String)))
		}
		want := []string{"index", "line", "type", "uuid", "parent_uuid", "is_sidechain", "session_id", "timestamp", "message_id", "on_chain", "raw"}
		want = slices.DeleteFunc(want, func(s string) bool { return s == unread })
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s unread: entry members %v, want %v", unread, got, want)
		}
	}
}

// TestWithMembersIsCopyAndInsert: withMembers makes the object Copy and
// Insert make, in the same order, of an object or of a view.
func TestWithMembersIsCopyAndInsert(t *testing.T) {
	v, err := astjson.Decode([]byte(`{"id":"m","role":"assistant","content":[1],"stop_reason":null,"usage":{"a":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(ast.Object)
	for _, kvs := range [][][2]*ast.Term{
		{{keyContent, ast.ArrayTerm(ast.IntNumberTerm(2))}, {keyStopReason, ast.StringTerm("tool_use")}},
		{{keyContent, ast.ArrayTerm()}, {keyStopReason, nil}},
		{{ast.StringTerm("new"), ast.BooleanTerm(true)}},
	} {
		want := o.Copy()
		for _, kv := range kvs {
			if kv[1] != nil {
				want.Insert(kv[0], kv[1])
			}
		}
		got := withMembers(o, kvs...)
		if got.Compare(want) != 0 || got.String() != want.String() {
			t.Errorf("withMembers = %v, want %v", got, want)
		}
		// A line decoded as a view gives a view, built as the object.
		var members [][2]*ast.Term
		o.Foreach(func(k, v *ast.Term) { members = append(members, [2]*ast.Term{k, v}) })
		gv, ok := withMembers(astjson.NewObjectView(members...), kvs...).(*astjson.ObjectView)
		if !ok {
			t.Fatal("withMembers of a view is not a view")
		}
		if m := gv.Materialize(); m.Compare(want) != 0 || m.String() != want.String() {
			t.Errorf("withMembers of a view = %v, want %v", m, want)
		}
	}
}
