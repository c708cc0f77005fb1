package lint

import (
	"context"
	"testing"

	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/policy"
)

const contractOnlyDataset = `package chatlint.t

# METADATA
# custom:
#   id: repeated-key
#   formats: [contract]
# description: a repeated key
dataset_deny contains {"rule": "repeated-key", "msg": "again", "line": d.line} if {
	some d in input.key_duplicates
}
`

// A dataset rule for one format folds only that format's files: the facts
// of other formats' records are not computed (the contract's duplicate-id
// rule costs chat files nothing).
func TestFoldsOnlyFormatsWithDatasetRules(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "t", Rego: []policy.File{{Name: "t.rego", Source: []byte(contractOnlyDataset)}}}}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{})
	if !l.Folds() {
		t.Fatal("Folds = false with a dataset rule")
	}
	_, fa := l.CheckFacts(context.Background(), Unit{File: "f", Format: document.Chat, Records: recs(`{"messages":[]}`)})
	if len(fa) != 0 {
		t.Errorf("chat record: %d facts, want none", len(fa))
	}
	_, fa = l.CheckFacts(context.Background(), Unit{File: "f", Format: document.Contract, Records: recs(`{"conversation_id":"c","messages":[]}`)})
	if len(fa) != 1 || fa[0].Member != "conversation_id" || fa[0].Key != "c" {
		t.Errorf("contract record: facts %+v, want one with key conversation_id=c", fa)
	}
}

// A fold whose rules read only the dataset keys computes no content facts
// (no record type, no content hash), and keeps of the record only the key's
// member besides what the record rules read; one that reads the content
// facts (input.duplicates) gets them, from the record kept whole. Either
// builds its documents with what the record rules read.
func TestFoldOfKeysOnly(t *testing.T) {
	const readsCopies = `package chatlint.t

# METADATA
# custom:
#   id: copies
#   formats: [contract]
# description: copies of a record
dataset_deny contains {"rule": "copies", "msg": "copy", "line": d.line} if {
	some d in input.duplicates
}
`
	for _, tc := range []struct {
		name, src string
		content   bool
	}{{"keys", contractOnlyDataset, false}, {"copies", readsCopies, true}} {
		eng, err := policy.Compile(context.Background(), []*policy.Pack{{Name: "t", Rego: []policy.File{{Name: "t.rego", Source: []byte(tc.src)}}}}, policy.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := eng.DatasetReadsContent("", "contract"); got != tc.content {
			t.Errorf("%s: DatasetReadsContent = %v, want %v", tc.name, got, tc.content)
		}
		l := New(eng, document.Options{})
		_, fa := l.CheckFacts(context.Background(), Unit{File: "f", Format: document.Contract, Records: recs(`{"conversation_id":"c","messages":[]}`)})
		if len(fa) != 1 || fa[0].Member != "conversation_id" || fa[0].Key != "c" {
			t.Fatalf("%s: facts %+v, want one with key conversation_id=c", tc.name, fa)
		}
		if got := fa[0].Hash != 0 && fa[0].Type == TypeChat; got != tc.content {
			t.Errorf("%s: facts %+v: content facts computed %v, want %v", tc.name, fa[0], got, tc.content)
		}
		if f := l.plan(document.Contract).opts.Fields; f.All() || f.StandsIn() == tc.content {
			t.Errorf("%s: documents built whole %v, record kept whole %v; want pruned documents, the record whole %v", tc.name, f.All(), !f.StandsIn(), tc.content)
		}
	}
}
