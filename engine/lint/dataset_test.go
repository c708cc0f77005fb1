package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

func TestDatasetFold(t *testing.T) {
	recs := []string{
		`{"id": "a", "messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}`,
		`{"messages": [{"content": "Hi", "role": "user"}, {"role": "assistant", "content": "Hello"}], "id": "b"}`, // same example: id and key order differ
		`{"messages": [{"role": "user", "content": "Hi!"}, {"role": "assistant", "content": "Hello"}]}`,
		`{"input": {"messages": [{"role": "user", "content": "Hi"}]}, "preferred_output": [{"role": "assistant", "content": "Hello"}], "non_preferred_output": [{"role": "assistant", "content": "No"}]}`,
		`{"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}`,
		`{"interactions": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]}`, // mistral-finetune's other name
	}
	b := document.NewBuilder(document.Chat, "f.jsonl", document.Options{})
	ds := NewDataset("f.jsonl", document.Chat, document.Options{})
	for i, r := range recs {
		obj, err := ast.ParseTerm(r)
		if err != nil {
			t.Fatal(err)
		}
		ds.Add(facts(b.Add(i+1, obj.Value.(ast.Object))))
	}
	var got struct {
		Records    int              `json:"records"`
		FirstLine  int              `json:"first_line"`
		Types      map[string]int   `json:"record_types"`
		TypeLines  map[string]int   `json:"record_type_lines"`
		Duplicates []map[string]int `json:"duplicates"`
		DupCount   int              `json:"duplicate_count"`
		Distinct   int              `json:"distinct"`
		Profile    string           `json:"profile"`
	}
	if err := ast.As(ds.Document(), &got); err != nil {
		t.Fatal(err)
	}
	want := got
	want.Records, want.FirstLine, want.Profile = 6, 1, "default"
	want.Types = map[string]int{"chat": 4, "preference": 1, "interactions": 1}
	want.TypeLines = map[string]int{"chat": 1, "preference": 4, "interactions": 6}
	want.Duplicates = []map[string]int{{"line": 2, "first_line": 1}, {"line": 5, "first_line": 1}}
	want.DupCount, want.Distinct = 2, 4
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("dataset document (-want +got):\n%s", d)
	}
}

// The content hash tells copies apart as the dataset document needs: the
// same record whatever its key order or top-level id, another one when a
// value's type or text differs. A writer reused from record to record
// allocates nothing (the facts of every record are hashed).
func TestFactsHash(t *testing.T) {
	hash := func(rec string) uint64 {
		t.Helper()
		obj, err := ast.ParseTerm(rec)
		if err != nil {
			t.Fatal(err)
		}
		return facts(document.NewBuilder(document.Chat, "f.jsonl", document.Options{}).Add(1, obj.Value.(ast.Object))).Hash
	}
	base := `{"id": "a", "messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": null, "l": [1, "1"]}`
	for _, tc := range []struct {
		rec  string
		same bool
	}{
		{`{"l": [1, "1"], "x": null, "ok": true, "n": 1, "messages": [{"content": "Hi", "role": "user"}]}`, true},
		{`{"id": "b", "messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": null, "l": [1, "1"]}`, true},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": "1", "ok": true, "x": null, "l": [1, "1"]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1.0, "ok": true, "x": null, "l": [1, "1"]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": "true", "x": null, "l": [1, "1"]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": "", "l": [1, "1"]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": null, "l": ["1", 1]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": null, "l": [[1, "1"]]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}, {}], "n": 1, "ok": true, "x": null, "l": [1, "1"]}`, false},
		{`{"messages": [{"role": "user", "content": "Hi"}], "n": 1, "ok": true, "x": null, "l": [1, "1"], "id2": 1}`, false},
	} {
		if got := hash(tc.rec) == hash(base); got != tc.same {
			t.Errorf("%s: same hash as %s: %v, want %v", tc.rec, base, got, tc.same)
		}
	}
}
