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
