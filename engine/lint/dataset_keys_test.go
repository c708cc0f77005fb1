package lint

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/document"
)

// A format's dataset key (the contract's conversation_id) is folded: the
// records repeating one are listed up to KeyBound, and counted beyond it;
// an empty id is an id, a record without a string id has none.
func TestDatasetKeyFold(t *testing.T) {
	recs := []string{
		`{"conversation_id": "c1", "messages": []}`,
		`{"conversation_id": "c2", "messages": []}`,
		`{"conversation_id": "c1", "messages": []}`,
		`{"conversation_id": 7, "messages": []}`,
		`{"conversation_id": "", "messages": []}`,
		`{"conversation_id": "", "messages": []}`,
		`{"conversation_id": "c2", "messages": []}`,
	}
	b := document.NewBuilder(document.Contract, "f.jsonl", document.Options{})
	ds := NewDataset("f.jsonl", document.Contract, document.Options{})
	ds.KeyBound = 2
	var firsts []int
	for i, r := range recs {
		obj, err := ast.ParseTerm(r)
		if err != nil {
			t.Fatal(err)
		}
		firsts = append(firsts, ds.Add(facts(b.Add(i+1, obj.Value.(ast.Object)))))
	}
	if diff := cmp.Diff([]int{0, 0, 1, 0, 0, 5, 2}, firsts); diff != "" {
		t.Errorf("first lines returned by Add (-want +got):\n%s", diff)
	}
	type keyDup struct {
		Line      int    `json:"line"`
		FirstLine int    `json:"first_line"`
		Member    string `json:"member"`
		Value     string `json:"value"`
	}
	var got struct {
		Dups     []keyDup `json:"key_duplicates"`
		Count    int      `json:"key_duplicate_count"`
		Distinct int      `json:"distinct_keys"`
	}
	if err := ast.As(ds.Document(), &got); err != nil {
		t.Fatal(err)
	}
	want := got
	want.Dups = []keyDup{{3, 1, "conversation_id", "c1"}, {6, 5, "conversation_id", ""}}
	want.Count, want.Distinct = 3, 3
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("dataset document (-want +got):\n%s", d)
	}
}
