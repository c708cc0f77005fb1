package lint

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/builtin"
	"github.com/chatlint/chatlint/engine/document"
	"github.com/chatlint/chatlint/engine/jsonl"
	"github.com/chatlint/chatlint/engine/policy"
)

// gatedPack's Rego reads the record whole and the lookup; its gate reads
// one member, flag. A record is decoded with what the gate reads, and the
// one the gate fires on is given to OPA built whole.
var gatedPack = &policy.Pack{
	Name: "g",
	Rego: []policy.File{{Name: "g.rego", Source: []byte(`package chatlint.g

# METADATA
# custom:
#   id: whole
#   formats: [contract]
# description: reports what only a whole document holds
deny contains {"rule": "whole", "msg": sprintf("%v %v %v", [input.raw.extra, input.raw.messages[0].name, input.lookup.message_keys])} if {
	input.raw.flag
}
`)}},
	YAML: []policy.File{{Name: "gate.yaml", Source: []byte(`rego_when:
  - given: document
    assert: {raw.flag: {not: {truthy: true}}}
`)}},
}

func TestGatedRecordsDecodedForTheGate(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{gatedPack}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{})
	if f := l.plan(document.Contract).opts.Fields; f.All() || !f.StandsIn() {
		t.Errorf("contract records: built whole %v, decoded whole %v; want pruned documents of records decoded as the gate reads them", f.All(), !f.StandsIn())
	}
	const msgs = `"messages": [{"role": "user", "content": "Hi", "name": "ann"}]`
	got := l.Check(context.Background(), Unit{File: "f", Format: document.Contract, Records: recs(
		`{"conversation_id": "a", "flag": false, "extra": [1, {"b": 2}], `+msgs+`}`,
		`{"conversation_id": "b", "flag": true, "extra": [1, {"b": 2}], `+msgs+`}`,
	)})
	var lines []string
	for _, f := range got {
		lines = append(lines, f.File+":"+strconv.Itoa(f.Line)+": "+f.Rule+": "+f.Message)
	}
	want := []string{`f:2: whole: [1, {"b": 2}] ann {"content", "name", "role"}`}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// With the built-in packs, a contract record is decoded and built with what
// the YAML rules and the contract pack's gate read: its members no rule
// but the contract's reads are stand-ins, the lookup (which the finetune
// pack's gate reads, under provider profiles) is not built, and the dataset
// fold of the contract's duplicate-id rule keeps conversation_id alone.
// The records the gate fires on get the contract's finding in full.
func TestContractRecordsDecodedForTheGate(t *testing.T) {
	packs, err := builtin.Packs()
	if err != nil {
		t.Fatal(err)
	}
	eng, err := policy.Compile(context.Background(), packs, policy.Options{LazyRego: true})
	if err != nil {
		t.Fatal(err)
	}
	l := New(eng, document.Options{})
	if f := l.plan(document.Contract).opts.Fields; f.All() || !f.StandsIn() {
		t.Fatalf("contract records: built whole %v, decoded whole %v; want them decoded as the gate reads them", f.All(), !f.StandsIn())
	}
	const msgs = `"messages": [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello."}]`
	var docs []*document.Document
	p := l.plan(document.Contract)
	u := Unit{File: "f", Format: document.Contract, Records: recs(
		`{"conversation_id": "c1", "user_id": "u", "timestamp": "2026-02-10T12:00:00Z", `+msgs+`, "metadata": {"tags": ["a", "b"]}}`,
		`{"conversation_id": "c1", "user_id": 7, "timestamp": "2026-02-30", `+msgs+`, "metadata": null}`,
	)}
	Documents(u, p.opts, func(d *document.Document, _ *jsonl.Record) { docs = append(docs, d) })
	if len(docs) != 2 {
		t.Fatalf("%d documents", len(docs))
	}
	if docs[0].Value.Get(ast.StringTerm("lookup")) != nil {
		t.Error("the lookup is built; no rule that runs on the record reads it")
	}
	meta := docs[0].Value.Get(document.KeyRaw).Value.(ast.Object).Get(ast.StringTerm("metadata"))
	if meta == nil || meta.Value.Compare(ast.MustParseTerm(`{"tags": ["a", "b"]}`).Value) == 0 {
		t.Errorf("metadata decoded as %v; the gate reads only its type", meta)
	}
	got := l.Check(context.Background(), u)
	var rules []string
	for _, f := range got {
		rules = append(rules, f.Rule)
		if f.Rule == "contract-schema" && !strings.Contains(f.Message, "user_id: Input should be a valid string (got number); timestamp") {
			t.Errorf("contract-schema: %s", f.Message)
		}
	}
	if diff := cmp.Diff([]string{"contract-schema"}, rules); diff != "" {
		t.Errorf("rules of the findings (-want +got):\n%s", diff)
	}
}

// Where the gate fires on most documents (every record, under a profile a
// gate does not cover), building each twice costs more than the gate
// saves: after a sample the plan turns to the fields the Rego reads, and
// the findings stay the same. Where it seldom fires, the plan stays.
func TestGatedPlanTurnsWhereTheGateFiresOnMost(t *testing.T) {
	eng, err := policy.Compile(context.Background(), []*policy.Pack{gatedPack}, policy.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		flag  func(i int) bool
		gated bool
	}{
		{"fires on every record", func(int) bool { return true }, false},
		{"fires on one in four", func(i int) bool { return i%4 == 0 }, true},
	} {
		l := New(eng, document.Options{})
		for i := range 2 * gateSample {
			rec := `{"conversation_id": "c", "flag": ` + strconv.FormatBool(tc.flag(i)) + `, "extra": 1, "messages": [{"role": "user", "content": "Hi", "name": "ann"}]}`
			got := l.Check(context.Background(), Unit{File: "f", Format: document.Contract, Records: recs(rec)})
			want := 0
			if tc.flag(i) {
				want = 1
			}
			if len(got) != want || want == 1 && got[0].Message != `1 ann {"content", "name", "role"}` {
				t.Fatalf("%s: record %d: findings %v, want %d", tc.name, i, got, want)
			}
		}
		p := l.plan(document.Contract)
		if p.gated != tc.gated || p.opts.Fields.StandsIn() != tc.gated {
			t.Errorf("%s: plan gated %v, record decoded as the gate reads it %v; want %v", tc.name, p.gated, p.opts.Fields.StandsIn(), tc.gated)
		}
	}
}
