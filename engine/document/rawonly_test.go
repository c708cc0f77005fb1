package document

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"
)

// TestRawOnly checks that a RawOnly builder gives the record as raw beside
// its format and nothing normalized, and that the default still normalizes.
func TestRawOnly(t *testing.T) {
	rec := ast.MustParseTerm(`{"conversation_id": "c1", "user_id": "u", "messages": [{"role": "user", "content": "hi"}]}`).Value.(ast.Object)
	keys := func(d *Document) []string {
		var out []string
		for _, k := range d.Value.Keys() {
			out = append(out, string(k.Value.(ast.String)))
		}
		return out
	}
	d := NewBuilder(Contract, "f.jsonl", Options{RawOnly: true}).Add(3, rec)
	if diff := cmp.Diff([]string{"format", "raw"}, keys(d)); diff != "" {
		t.Errorf("RawOnly keys (-want +got):\n%s", diff)
	}
	if d.Line != 3 || d.File != "f.jsonl" || d.Format != Contract || d.Value.Get(KeyRaw).Value.Compare(rec) != 0 {
		t.Errorf("RawOnly document = %+v", d)
	}
	full := NewBuilder(Contract, "f.jsonl", Options{}).Add(3, rec)
	if full.Value.Get(KeyMessages) == nil || full.ID != "c1" {
		t.Errorf("default document lacks its normalized messages or id: %v", full.Value)
	}
}
