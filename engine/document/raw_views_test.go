package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/open-policy-agent/opa/v1/ast"
)

// rawViewRecords hold strings too long to intern, so that their messages
// are decoded as views rather than shared objects (astjson's shared.go).
var rawViewRecords = []string{
	`{"messages": [{"role": "system", "content": "you are a careful assistant, be brief"},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "call_0123456789abcdefghijklmnop", "type": "function", "function": {"name": "shell", "arguments": "{\"cmd\": \"ls -la /tmp/some/where\"}"}}]},
		{"role": "tool", "tool_call_id": "call_0123456789abcdefghijklmnop", "content": "a listing longer than thirty-two bytes"},
		{"role": "assistant", "content": "the answer, longer than thirty-two bytes", "stop_reason": "end_turn"}],
	  "tools": [{"type": "function", "function": {"name": "shell", "parameters": {"type": "object"}}}]}`,
	`{"messages": [{"role": "user", "content": [{"type": "text", "text": "a part longer than thirty-two bytes"}]},
		{"role": "assistant", "content": [{"type": "tool_use", "id": "tu_1", "name": "shell", "input": {"cmd": "ls"}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu_1", "is_error": true, "content": "no such file, longer than thirty-two bytes"}]}]}`,
}

// TestRawMessageViews: where rules read the raw record and the messages are
// views, chat records decode with their raw messages as astjson views
// (rawMessageViews). The document built from them reads as the one built
// from the record decoded whole, and Materialized, what Rego and Go readers
// get, is that document exactly and holds no view.
func TestRawMessageViews(t *testing.T) {
	views := 0
	for name, f := range map[string]*Fields{
		"text and raw": fieldsOf("messages.*.text", "messages.*.raw", "raw"),
		"raw only":     fieldsOf("messages.*.role", "raw"),
	} {
		opts := Options{Fields: f}
		p := Projection(Chat, opts)
		if p == nil || p.Members["messages"] == nil || !p.Members["messages"].Elem.View {
			t.Fatalf("%s: projection %+v does not build the raw messages as views", name, p)
		}
		if q := Projection(Chat, Options{Fields: f.PlainMessages()}); q != nil {
			t.Errorf("%s: plain messages decode with projection %+v, want the record whole", name, q)
		}
		for ri, rec := range rawViewRecords {
			v, err := astjson.DecodeProjected([]byte(rec), p)
			if err != nil {
				t.Fatal(err)
			}
			raw := v.(ast.Object).Get(KeyMessages).Value.(*ast.Array)
			for i := 0; i < raw.Len(); i++ {
				if _, ok := raw.Elem(i).Value.(*astjson.ObjectView); ok {
					views++
				}
			}
			d := NewBuilder(Chat, "f.jsonl", opts).Add(3, v.(ast.Object))
			want := NewBuilder(Chat, "f.jsonl", Options{Fields: f.PlainMessages()}).Add(3, obj(t, rec))
			if d.Value.Hash() != want.Value.Hash() {
				t.Errorf("%s, record %d: document hash %d, want %d", name, ri, d.Value.Hash(), want.Value.Hash())
			}
			mat := d.Materialized()
			if holdsView(mat) {
				t.Errorf("%s, record %d: Materialized holds a view: %v", name, ri, mat)
			}
			if ast.Compare(want.Value, mat) != 0 || mat.String() != want.Value.String() {
				t.Errorf("%s, record %d: Materialized\n%v\nwant\n%v", name, ri, mat, want.Value)
			}
		}
	}
	if views == 0 {
		t.Fatal("no raw message was decoded as a view: the test proves nothing")
	}
}

// holdsView reports whether v holds a MessageValue or an astjson view
// anywhere.
func holdsView(v ast.Value) bool {
	switch x := v.(type) {
	case *MessageValue, *astjson.ObjectView:
		return true
	case *ast.Array:
		for i := 0; i < x.Len(); i++ {
			if holdsView(x.Elem(i).Value) {
				return true
			}
		}
	case ast.Object:
		return x.Until(func(_, e *ast.Term) bool { return holdsView(e.Value) })
	}
	return false
}

// Where the analysis says what the rules read of raw (Fields.WithRaw), the
// record is decoded as far as they read it and its raw messages are still
// views where the messages are MessageValues: the document is the one the
// same reads give with plain messages.
func TestRawMessageViewsWithRawReads(t *testing.T) {
	record := &RawTree{Kids: map[string]*RawTree{"messages": {Kids: map[string]*RawTree{"*": {All: true}}}}}
	f := fieldsOf("messages.*.role", "raw").WithRaw(record, nil)
	p := Projection(Chat, Options{Fields: f})
	if p == nil || p.Members["messages"] == nil || p.Members["messages"].Elem == nil || !p.Members["messages"].Elem.View {
		t.Fatalf("projection %+v does not build the raw messages as views", p)
	}
	plain := Options{Fields: f.PlainMessages()}
	q := Projection(Chat, plain)
	if q != nil && q.Members["messages"] != nil && q.Members["messages"].Elem != nil && q.Members["messages"].Elem.View {
		t.Errorf("plain messages decode with views: %+v", q)
	}
	views := 0
	for ri, rec := range rawViewRecords {
		v, err := astjson.DecodeProjected([]byte(rec), p)
		if err != nil {
			t.Fatal(err)
		}
		raw := v.(ast.Object).Get(KeyMessages).Value.(*ast.Array)
		for i := 0; i < raw.Len(); i++ {
			if _, ok := raw.Elem(i).Value.(*astjson.ObjectView); ok {
				views++
			}
		}
		d := NewBuilder(Chat, "f.jsonl", Options{Fields: f}).Add(3, v.(ast.Object))
		pv, err := astjson.DecodeProjected([]byte(rec), q)
		if err != nil {
			t.Fatal(err)
		}
		want := NewBuilder(Chat, "f.jsonl", plain).Add(3, pv.(ast.Object))
		if mat := d.Materialized(); holdsView(mat) || ast.Compare(want.Value, mat) != 0 {
			t.Errorf("record %d: Materialized\n%v\nwant\n%v", ri, mat, want.Value)
		}
	}
	if views == 0 {
		t.Fatal("no raw message was decoded as a view")
	}
}

// Where no rule reads raw, the projection decodes the messages for the
// builder only: each message, tool call and call function is a view, and
// the document is the one the record decoded whole gives, with plain
// messages or views alike.
func TestProjectedMessagesAreViews(t *testing.T) {
	for name, f := range map[string]*Fields{
		"role and calls":      fieldsOf("messages.*.role", "messages.*.tool_calls"),
		"calls' arguments":    fieldsOf("messages.*.tool_calls.*.arguments"),
		"text, plain":         fieldsOf("messages.*.text").PlainMessages(),
		"role and ids, plain": fieldsOf("messages.*.role", "messages.*.tool_calls.*.id").PlainMessages(),
	} {
		opts := Options{Fields: f}
		p := Projection(Chat, opts)
		if p == nil || p.Members["messages"] == nil || !p.Members["messages"].Elem.View {
			t.Fatalf("%s: projection %+v does not build the messages as views", name, p)
		}
		views := 0
		for ri, rec := range rawViewRecords {
			v, err := astjson.DecodeProjected([]byte(rec), p)
			if err != nil {
				t.Fatal(err)
			}
			raw := v.(ast.Object).Get(KeyMessages).Value.(*ast.Array)
			for i := 0; i < raw.Len(); i++ {
				m, ok := raw.Elem(i).Value.(*astjson.ObjectView)
				if !ok {
					continue
				}
				views++
				if c := m.Get(KeyToolCalls); c == nil {
					continue
				} else if calls, ok := c.Value.(*ast.Array); ok && calls.Len() > 0 {
					if _, ok := calls.Elem(0).Value.(*astjson.ObjectView); !ok {
						t.Errorf("%s, record %d: a tool call is %T, want a view", name, ri, calls.Elem(0).Value)
					}
				}
			}
			d := NewBuilder(Chat, "f.jsonl", opts).Add(3, v.(ast.Object))
			want := NewBuilder(Chat, "f.jsonl", opts).Add(3, obj(t, rec))
			if mat, w := d.Materialized(), want.Materialized(); holdsView(mat) || ast.Compare(w, mat) != 0 {
				t.Errorf("%s, record %d: Materialized\n%v\nwant\n%v", name, ri, mat, w)
			}
		}
		if views == 0 {
			t.Fatalf("%s: no message was decoded as a view", name)
		}
	}
}

// A "*" under raw is any member of an object as well as any element of an
// array (a Rego rule iterating a message's content, `some k, p in
// m.raw.extra`, meets an object's members): every member is kept as the
// "*" says, where it used to be a stub, true.
func TestRawReadsStarOverAnObject(t *testing.T) {
	kind := &RawTree{}
	msg := &RawTree{Kids: map[string]*RawTree{"extra": {Kids: map[string]*RawTree{"*": kind}}}}
	f := fieldsOf("messages.*.role", "messages.*.raw").PlainMessages().WithRaw(nil, msg)
	p := Projection(Chat, Options{Fields: f})
	rec := `{"messages":[{"role":"user","content":"hi","extra":{"a":[1,2],"b":"x","c":{"d":1}}}]}`
	v, err := astjson.DecodeProjected([]byte(rec), p)
	if err != nil {
		t.Fatal(err)
	}
	m := v.(ast.Object).Get(KeyMessages).Value.(*ast.Array).Elem(0).Value.(ast.Object)
	extra := m.Get(ast.StringTerm("extra")).Value.(ast.Object)
	got := map[string]string{}
	extra.Foreach(func(k, v *ast.Term) { got[string(k.Value.(ast.String))] = ast.TypeName(v.Value) })
	want := map[string]string{"a": "array", "b": "string", "c": "object"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("extra's members' kinds (-want +got):\n%s", diff)
	}
}

// TestPrunedRecordView: where no rule reads raw, a chat or contract record
// is decoded as a view (chatProjection): the builder reads a few of its
// members, each found by comparing keys rather than hashing them. The
// document built from it is the one built from the record decoded whole.
func TestPrunedRecordView(t *testing.T) {
	for name, f := range map[string]*Fields{
		"roles and calls": fieldsOf("messages.*.role", "messages.*.tool_calls"),
		"text":            fieldsOf("messages.*.text"),
		"tools":           fieldsOf("tools", "messages.*.role"),
	} {
		for _, format := range []Format{Chat, Contract} {
			opts := Options{Fields: f}
			p := Projection(format, opts)
			for ri, rec := range rawViewRecords {
				v, err := astjson.DecodeProjected([]byte(rec), p)
				if err != nil {
					t.Fatal(err)
				}
				if _, ok := v.(*astjson.ObjectView); !ok {
					t.Errorf("%s, %s, record %d: decoded as %T, want *astjson.ObjectView", name, format, ri, v)
				}
				got := NewBuilder(format, "f.jsonl", opts).Add(3, v.(ast.Object)).Materialized()
				want := NewBuilder(format, "f.jsonl", opts).Add(3, obj(t, rec)).Materialized()
				if ast.Compare(want, got) != 0 || got.String() != want.String() {
					t.Errorf("%s, %s, record %d: document\n%v\nwant\n%v", name, format, ri, got, want)
				}
			}
		}
	}
}
