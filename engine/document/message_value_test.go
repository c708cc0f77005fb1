package document

import (
	"testing"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// viewRecords have every member a pruned message can hold: tool calls, a
// tool_call_id, a stop_reason, an is_error, an anthropic tool result.
var viewRecords = []string{
	fieldsRecord,
	`{"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": ""},
		{"role": "assistant", "content": "ok", "stop_reason": "end_turn"}]}`,
	`{"messages": [{"role": "user", "content": "hi"},
		{"role": "assistant", "content": [{"type": "tool_use", "id": "tu_1", "name": "shell", "input": {"cmd": "ls"}}]},
		{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu_1", "is_error": true, "content": "no"}]}]}`,
}

// viewFieldSets are the field sets the views are checked under: every
// message member, the bench pack's, the default packs' kind.
var viewFieldSets = map[string]*Fields{
	"every message member": fieldsOf("messages.*.index", "messages.*.role", "messages.*.text",
		"messages.*.has_content", "messages.*.tool_calls.*.id", "messages.*.turn", "messages.*.line",
		"messages.*.path", "messages.*.raw", "messages.*.tool_call_id", "messages.*.stop_reason",
		"messages.*.is_error", "messages.*.lines"),
	"the bench pack":    fieldsOf("messages.*.role", "messages.*.tool_call_id", "messages.*.tool_calls.*.id"),
	"text and raw":      fieldsOf("messages.*.text", "messages.*.raw", "raw"),
	"roles and lookup":  fieldsOf("messages.*.role", "lookup"),
	"index, turn, line": fieldsOf("messages.*.index", "messages.*.turn", "messages.*.line", "messages.*.role"),
}

// TestMessageValueSameAsObject: a pruned document's views answer every
// question as the object prunedMessage builds (the document built with
// PlainMessages), and Materialized is that document exactly.
func TestMessageValueSameAsObject(t *testing.T) {
	views := 0
	for name, f := range viewFieldSets {
		for ri, rec := range viewRecords {
			d := NewBuilder(Chat, "f.jsonl", Options{Fields: f}).Add(3, obj(t, rec))
			p := NewBuilder(Chat, "f.jsonl", Options{Fields: f.PlainMessages()}).Add(3, obj(t, rec))
			msgs := d.Value.Get(KeyMessages).Value.(*ast.Array)
			plain := p.Value.Get(KeyMessages).Value.(*ast.Array)
			if msgs.Hash() != plain.Hash() {
				t.Errorf("%s, record %d: messages array hash %d, want %d", name, ri, msgs.Hash(), plain.Hash())
			}
			for i := 0; i < plain.Len(); i++ {
				if _, ok := plain.Elem(i).Value.(*MessageValue); ok {
					t.Errorf("%s, record %d: PlainMessages built a view", name, ri)
				}
				v, ok := msgs.Elem(i).Value.(*MessageValue)
				if !ok {
					continue // a shared message (builder_shared.go)
				}
				views++
				checkView(t, name, v, plain.Elem(i).Value.(ast.Object))
			}
			mat := d.Materialized()
			if holdsView(mat) { // a message, a raw message or a call (raw_views_test.go)
				t.Errorf("%s, record %d: Materialized holds a view: %v", name, ri, mat)
			}
			if ast.Compare(mat, p.Value) != 0 || mat.String() != p.Value.String() || !keysEqual(mat, p.Value) {
				t.Errorf("%s, record %d: Materialized\n%v\nwant\n%v", name, ri, mat, p.Value)
			}
			if mat.Hash() != p.Value.Hash() || d.Value.Hash() != p.Value.Hash() {
				t.Errorf("%s, record %d: document hash %d, materialized %d, want %d", name, ri, d.Value.Hash(), mat.Hash(), p.Value.Hash())
			}
			for i := 0; i < plain.Len(); i++ {
				if _, ok := mat.Get(KeyMessages).Value.(*ast.Array).Elem(i).Value.(*MessageValue); ok {
					t.Errorf("%s, record %d: Materialized holds a view", name, ri)
				}
			}
		}
	}
	if views == 0 {
		t.Fatal("no message was built as a view: the test proves nothing")
	}
}

// checkView compares view v with the object o it must stand for, asking v
// before it is materialized.
func checkView(t *testing.T, name string, v *MessageValue, o ast.Object) {
	t.Helper()
	if v.Len() != o.Len() || v.Hash() != o.Hash() || v.IsGround() != o.IsGround() {
		t.Errorf("%s: view len %d hash %d ground %v, object %d %d %v", name, v.Len(), v.Hash(), v.IsGround(), o.Len(), o.Hash(), o.IsGround())
	}
	for _, k := range append(msgSlotKeys[:], ast.StringTerm("content"), ast.IntNumberTerm(1)) {
		if got, want := v.Get(k), o.Get(k); !(got == nil && want == nil || got != nil && want != nil && got.Equal(want)) {
			t.Errorf("%s: Get(%v) = %v, want %v", name, k, got, want)
		}
	}
	if v.Object != nil {
		t.Errorf("%s: Len, Hash, IsGround and Get built the object", name)
	}
	var asValue ast.Value = v
	if _, ok := asValue.(ast.Object); !ok {
		t.Errorf("%s: a view is not an ast.Object", name)
	}
	if v.Compare(o) != 0 || ast.Compare(Plain(v), o) != 0 || ast.Compare(o, Plain(v)) != 0 || v.String() != o.String() {
		t.Errorf("%s: view %v compares unequal to %v", name, v, o)
	}
	if !keysEqual(v, o) || v.StringLength() != o.StringLength() {
		t.Errorf("%s: keys %v, want %v", name, v.Keys(), o.Keys())
	}
}

func keysEqual(a, b ast.Object) bool {
	return cmp.Equal(termStrings(a.Keys()), termStrings(b.Keys()))
}

func termStrings(ts []*ast.Term) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.String()
	}
	return out
}

// TestMessageValueInsert: a member inserted into a view is seen by Get and
// Len, and by the object.
func TestMessageValueInsert(t *testing.T) {
	d := NewBuilder(Chat, "f.jsonl", Options{Fields: viewFieldSets["every message member"]}).Add(1, obj(t, fieldsRecord))
	v := d.Value.Get(KeyMessages).Value.(*ast.Array).Elem(0).Value.(*MessageValue)
	n := v.Len()
	v.Insert(ast.StringTerm("extra"), ast.BooleanTerm(true))
	v.Insert(KeyIndex, ast.IntNumberTerm(9))
	if got := v.Get(ast.StringTerm("extra")); got == nil || !got.Equal(ast.BooleanTerm(true)) {
		t.Errorf("inserted member: %v", got)
	}
	if got := v.Member(MessageSlot("index"), KeyIndex); !got.Equal(ast.IntNumberTerm(9)) {
		t.Errorf("index slot after Insert: %v", got)
	}
	if v.Len() != n+1 || v.Hash() != v.Materialize().Hash() {
		t.Errorf("after Insert: len %d (want %d), hash %d (want %d)", v.Len(), n+1, v.Hash(), v.Materialize().Hash())
	}
}

// TestPlainWholeDocument: documents built without Fields hold no view, and
// their Materialized is their Value.
func TestPlainWholeDocument(t *testing.T) {
	d := NewBuilder(Chat, "f.jsonl", Options{}).Add(1, obj(t, fieldsRecord))
	if d.Materialized() != d.Value {
		t.Error("a whole document's Materialized is not its Value")
	}
	if _, ok := d.Value.Get(KeyMessages).Value.(*ast.Array).Elem(0).Value.(*MessageValue); ok {
		t.Error("a whole document holds a view")
	}
}

// FuzzMessageViews builds arbitrary records of every format under each
// field set with views and with plain messages: the views must answer Get,
// Len and Hash as the objects do, and Materialized must be the plain
// document.
func FuzzMessageViews(f *testing.F) {
	for _, r := range append(viewRecords, fuzzRecords...) {
		f.Add([]byte(r))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := astjson.Decode(data)
		if err != nil {
			return
		}
		rec, ok := v.(ast.Object)
		if !ok {
			return
		}
		for name, fs := range viewFieldSets {
			for _, format := range Formats {
				d := NewBuilder(format, "fuzz.jsonl", Options{Fields: fs}).Add(1, rec)
				p := NewBuilder(format, "fuzz.jsonl", Options{Fields: fs.PlainMessages()}).Add(1, rec)
				if d == nil || p == nil {
					if (d == nil) != (p == nil) {
						t.Fatalf("%s, %s: a document with views or plain messages only", name, format)
					}
					continue
				}
				if mt := d.Value.Get(KeyMessages); mt != nil {
					if arr, ok := mt.Value.(*ast.Array); ok {
						plain := p.Value.Get(KeyMessages).Value.(*ast.Array)
						for i := 0; i < arr.Len(); i++ {
							if mv, ok := arr.Elem(i).Value.(*MessageValue); ok {
								o := plain.Elem(i).Value.(ast.Object)
								for _, k := range msgSlotKeys {
									if got, want := mv.Get(k), o.Get(k); (got == nil) != (want == nil) || got != nil && !got.Equal(want) {
										t.Fatalf("%s, %s: message %d: Get(%v) = %v, want %v", name, format, i, k, got, want)
									}
								}
								if mv.Len() != o.Len() || mv.Hash() != o.Hash() {
									t.Fatalf("%s, %s: message %d: len %d hash %d, want %d %d", name, format, i, mv.Len(), mv.Hash(), o.Len(), o.Hash())
								}
							}
						}
					}
				}
				if got, want := d.Materialized().String(), p.Value.String(); got != want {
					t.Fatalf("%s, %s: Materialized\n%s\nwant\n%s", name, format, got, want)
				}
			}
		}
	})
}

// TestNumberHash: the views' number hash is OPA's on every shape of number
// a slot or JSON may hold.
func TestNumberHash(t *testing.T) {
	for _, s := range []string{
		"0", "-0", "7", "42", "999", "1000", "12345", "-12345", "007", "0123",
		"999999999999999", "-999999999999999", "1234567890123456", "9007199254740993",
		"1.5", "1e3", "-2.0", "1E400", "-", "",
	} {
		n := ast.Number(s)
		if got, want := numberHash(n), n.Hash(); got != want {
			t.Errorf("numberHash(%q) = %d, want %d", s, got, want)
		}
	}
}
