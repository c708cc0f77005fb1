package document

import (
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
)

// obj decodes a JSON object the way the linter does.
func obj(t testing.TB, s string) ast.Object {
	t.Helper()
	v, err := astjson.Decode([]byte(s))
	if err != nil {
		t.Fatalf("decode %s: %v", s, err)
	}
	o, ok := v.(ast.Object)
	if !ok {
		t.Fatalf("not an object: %s", s)
	}
	return o
}

// build feeds records to a new Builder, record i on line i+1 (an empty string
// is a blank line: counted, not fed), and returns the documents Add returned
// followed by the one Finish returned.
func build(t testing.TB, f Format, opts Options, file string, lines ...string) []*Document {
	t.Helper()
	b := NewBuilder(f, file, opts)
	var docs []*Document
	for i, l := range lines {
		if l == "" {
			continue
		}
		if d := b.Add(i+1, obj(t, l)); d != nil {
			docs = append(docs, d)
		}
	}
	if d := b.Finish(); d != nil {
		docs = append(docs, d)
	}
	return docs
}

// one builds and expects exactly one document.
func one(t testing.TB, f Format, opts Options, lines ...string) *Document {
	t.Helper()
	docs := build(t, f, opts, "f.jsonl", lines...)
	if len(docs) != 1 {
		t.Fatalf("got %d documents, want 1", len(docs))
	}
	return docs[0]
}

// goValue turns an ast value into plain Go values, numbers as float64, the
// way encoding/json would decode the same JSON.
func goValue(t testing.TB, v ast.Value) any {
	t.Helper()
	x, err := ast.JSON(v)
	if err != nil {
		t.Fatalf("ast.JSON: %v", err)
	}
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal: %v", err)
	}
	return out
}

// docMap is the whole document as Go values.
func docMap(t testing.TB, d *Document) map[string]any {
	t.Helper()
	return goValue(t, d.Value).(map[string]any)
}

// js parses expected JSON into Go values.
func js(t testing.TB, s string) any {
	t.Helper()
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatalf("expected JSON %s: %v", s, err)
	}
	return out
}

// project keeps only the named fields (those present) of each element of a
// list of objects.
func project(list any, fields ...string) []map[string]any {
	var out []map[string]any
	for _, e := range list.([]any) {
		m := e.(map[string]any)
		p := map[string]any{}
		for _, f := range fields {
			if v, ok := m[f]; ok {
				p[f] = v
			}
		}
		out = append(out, p)
	}
	return out
}

// list returns one of the document's arrays as Go values.
func list(t testing.TB, d *Document, key string) []any {
	t.Helper()
	v, ok := docMap(t, d)[key].([]any)
	if !ok {
		t.Fatalf("document %s is not an array", key)
	}
	return v
}

// asMaps converts a []any of objects, for cmp.Diff against []map[string]any.
func asMaps(t testing.TB, v any) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range v.([]any) {
		out = append(out, e.(map[string]any))
	}
	return out
}

// emptyLookupJSON is the lookup member of a document without messages.
const emptyLookupJSON = `"lookup":{"assistant":[],"tool":[],"calls":[],"call_ids":[],"call_names":[],"results":[],"tool_call_lists":[],"roles":[],"tool_names":[],"message_keys":[],"content_not_string":[]}`

// materializedHoldsNoViews fails t when a session document's materialized
// value (Document.Materialized) still holds a view among its entries or
// messages, as their raw or as a tool call: OPA's own code panics on one.
func materializedHoldsNoViews(t *testing.T, got ast.Object) {
	t.Helper()
	for _, k := range []*ast.Term{keyEntries, KeyMessages} {
		arr := arrayField(got, k)
		for i := 0; i < arr.Len(); i++ {
			e := arr.Elem(i).Value
			switch e.(type) {
			case *astjson.ObjectView, *MessageValue:
				t.Fatalf("materialized %v %d is a view", k, i)
			}
			if _, ok := e.(ast.Object).Get(KeyRaw).Value.(*astjson.ObjectView); ok {
				t.Fatalf("materialized %v %d holds a view as raw", k, i)
			}
			if c := e.(ast.Object).Get(KeyToolCalls); c != nil {
				calls := c.Value.(*ast.Array)
				for j := 0; j < calls.Len(); j++ {
					if _, ok := calls.Elem(j).Value.(*astjson.ObjectView); ok {
						t.Fatalf("materialized %v %d holds call %d as a view", k, i, j)
					}
				}
			}
		}
	}
}
