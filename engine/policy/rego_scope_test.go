package policy

import (
	"context"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/chatlint/chatlint/engine/astjson"
	"github.com/chatlint/chatlint/engine/document"
)

// OPA runs on a document only when some Rego rule applies to its format and
// profile; the lookup is built for a profile only when a Rego rule that may
// read it runs under that profile (or a YAML file names it).
func TestRegoScope(t *testing.T) {
	src := `package chatlint.gate

# METADATA
# description: Fires on every chat record under p1.
# custom:
#   id: under-p1
#   severity: warning
#   profiles: [p1]
#   formats: [chat]
warn contains {"rule": "under-p1", "msg": "x"} if count(input.lookup.roles) >= 0

# METADATA
# description: A dataset rule under every profile, never evaluated per record.
# custom:
#   id: whole-file
#   severity: warning
dataset_warn contains {"rule": "whole-file", "msg": "x"} if input.records > 0
`
	p := &Pack{Name: "gate", Rego: []File{{Name: "gate.rego", Source: []byte(src)}}, Profiles: []Profile{{Name: "p1"}}}
	e, err := Compile(context.Background(), []*Pack{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		format, profile string
		open            bool
	}{{"chat", "p1", true}, {"chat", "default", false}, {"proxy-log", "p1", false}, {"chat", "", false}} {
		if got := e.regoScope.open(tc.format, profileOf(tc.profile)); got != tc.open {
			t.Errorf("regoScope.open(%s, %q) = %v, want %v", tc.format, tc.profile, got, tc.open)
		}
	}
	if e.ReadsLookupUnder("default") || e.ReadsLookupUnder("") {
		t.Error("the lookup is built under the default profile, where no Rego rule runs")
	}
	if !e.ReadsLookupUnder("p1") {
		t.Error("the lookup is not built under p1, where under-p1 reads it")
	}
	// Per format: only where under-p1 applies, a chat document under p1.
	for _, tc := range []struct {
		format, profile string
		reads           bool
	}{{"chat", "p1", true}, {"proxy-log", "p1", false}, {"chat", "default", false}, {"claude-code", "p1", false}} {
		if got := e.ReadsLookupFor(tc.format, tc.profile); got != tc.reads {
			t.Errorf("ReadsLookupFor(%s, %q) = %v, want %v", tc.format, tc.profile, got, tc.reads)
		}
	}
	// A pack whose Rego declares no rule runs everywhere.
	q := &Pack{Name: "bare", Rego: []File{{Name: "bare.rego", Source: []byte("package chatlint.bare\n\nx := input.lookup\n")}}}
	e, err = Compile(context.Background(), []*Pack{q}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !e.regoScope.open("chat", "default") || !e.ReadsLookupUnder("default") || !e.ReadsLookupFor("sharegpt", "default") {
		t.Error("a pack without declared rules is not evaluated everywhere")
	}
}

// A pack's Rego is evaluated on a document only when one of the pack's own
// rules applies to it, though another pack's rule has OPA run on it: the
// chat-only pack below writes a malformed finding (no msg) wherever it is
// evaluated, which an evaluation reports as an error. Compiled
// (policy/regoc) and on topdown alike.
func TestRegoPackScope(t *testing.T) {
	chatOnly := &Pack{Name: "chatonly", Rego: []File{{Name: "chatonly.rego", Source: []byte(`package chatlint.chatonly

# METADATA
# description: A finding without a message, on every document it is evaluated on.
# custom:
#   id: chat-only
#   severity: warning
#   formats: [chat]
warn contains {"rule": "chat-only"} if input.format
`)}}}
	contractOnly := &Pack{Name: "contractonly", Rego: []File{{Name: "contractonly.rego", Source: []byte(`package chatlint.contractonly

# METADATA
# description: Fires on every contract record.
# custom:
#   id: contract-only
#   severity: error
#   formats: [contract]
deny contains {"rule": "contract-only", "msg": "x"} if input.format == "contract"
`)}}}
	// A cleanup pack whose rule names chat only: its actions are not
	// dropped outside the rule's formats as findings are, so it still acts
	// on a contract record where OPA runs.
	chatCleanup := &Pack{Name: "chatcleanup", Rego: []File{{Name: "chatcleanup.rego", Source: []byte(`package chatlint.chatcleanup

# METADATA
# description: Drops the record.
# custom:
#   id: drop-all
#   formats: [chat]
actions contains {"op": "drop_record", "rule": "drop-all", "reason": "test"} if input.format
`)}}}
	doc := func(f document.Format, rec string) *document.Document {
		v, err := astjson.Decode([]byte(rec))
		if err != nil {
			t.Fatal(err)
		}
		return document.NewBuilder(f, "f.jsonl", document.Options{}).Add(1, v.(ast.Object))
	}
	for _, mode := range []string{"compiled", "topdown"} {
		if mode == "topdown" {
			t.Setenv("CHATLINT_REGO_EVAL", "topdown")
		}
		e, err := Compile(context.Background(), []*Pack{chatOnly, contractOnly}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		ev := e.NewEvaluator()
		hits, err := ev.Evaluate(context.Background(), doc(document.Contract, `{"conversation_id": "c", "messages": []}`))
		if err != nil {
			t.Errorf("%s: a contract record: %v (the chat-only pack was evaluated)", mode, err)
		}
		var ids []string
		for _, h := range hits {
			ids = append(ids, h.Rule)
		}
		if d := cmp.Diff([]string{"contract-only"}, ids); d != "" {
			t.Errorf("%s: a contract record's hits (-want +got):\n%s", mode, d)
		}
		_, err = ev.Evaluate(context.Background(), doc(document.Chat, `{"messages": []}`))
		var bad *OutputError
		if !errors.As(err, &bad) {
			t.Errorf("%s: a chat record: error %v, want the chat-only pack's malformed finding", mode, err)
		}
		c, err := Compile(context.Background(), []*Pack{chatCleanup, contractOnly}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, acts, err := c.NewEvaluator().EvaluateActions(context.Background(), doc(document.Contract, `{"conversation_id": "c", "messages": []}`))
		if err != nil || len(acts) != 1 || acts[0].Rule != "drop-all" {
			t.Errorf("%s: a contract record's actions %+v, error %v: want drop-all's", mode, acts, err)
		}
	}
}

// A pack with dataset rules and no record rule: its dataset sets are the
// only ones, and the per-pack scope (which dataset rules do not enter) must
// not take them for record sets and skip them.
func TestRegoScopeLeavesDatasetSets(t *testing.T) {
	p := &Pack{Name: "team", Rego: []File{{Name: "d.rego", Source: []byte(`package chatlint.team

# METADATA
# description: A file has fewer than 3 records.
# custom:
#   id: too-small
#   severity: error
dataset_deny contains {"rule": "too-small", "msg": "small"} if input.records < 3
`)}}}
	e, err := Compile(context.Background(), []*Pack{p}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	doc := ast.NewObject(ast.Item(ast.StringTerm("records"), ast.IntNumberTerm(2)))
	hits, err := e.NewEvaluator().EvaluateDataset(context.Background(), "chat", "", doc)
	if err != nil || len(hits) != 1 || hits[0].Rule != "too-small" {
		t.Errorf("hits %+v, error %v: want too-small", hits, err)
	}
}

// A compiled pack is not even run on a document none of its rules applies
// to, as topdown skips its sets: what it found there would be dropped,
// and running it handed the built-ins it calls a long session whole (the
// finetune pack's example_tokens(input) on a Claude Code session under
// --profile openai). The chat-only pack below meets a conflict on every
// record of two roles, which sends the closures to topdown.
func TestRegoCompiledPackScope(t *testing.T) {
	chatOnly := &Pack{Name: "chatonly", Rego: []File{{Name: "chatonly.rego", Source: []byte(`package chatlint.chatonly

only_role := m.role if some m in input.messages

# METADATA
# description: Fires on a chat record of one role.
# custom:
#   id: one-role
#   severity: warning
#   formats: [chat]
warn contains {"rule": "one-role", "msg": only_role} if only_role
`)}}}
	contractOnly := &Pack{Name: "contractonly", Rego: []File{{Name: "contractonly.rego", Source: []byte(`package chatlint.contractonly

# METADATA
# description: Fires on every contract record.
# custom:
#   id: contract-only
#   severity: error
#   formats: [contract]
deny contains {"rule": "contract-only", "msg": "x"} if input.format == "contract"
`)}}}
	e, err := Compile(context.Background(), []*Pack{chatOnly, contractOnly}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"data.chatlint.chatonly", "data.chatlint.contractonly"}, RegoCompiled(e)); d != "" {
		t.Fatalf("compiled packages (-want +got):\n%s", d)
	}
	doc := func(f document.Format, rec string) *document.Document {
		v, err := astjson.Decode([]byte(rec))
		if err != nil {
			t.Fatal(err)
		}
		return document.NewBuilder(f, "f.jsonl", document.Options{}).Add(1, v.(ast.Object))
	}
	const msgs = `"messages": [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}]`
	ev := e.NewEvaluator()
	hits, err := ev.Evaluate(context.Background(), doc(document.Contract, `{"conversation_id": "c", `+msgs+`}`))
	if err != nil || len(hits) != 1 || hits[0].Rule != "contract-only" {
		t.Errorf("a contract record: hits %+v, error %v: want contract-only's", hits, err)
	}
	if n := RegoFallbacks(e); n != 0 {
		t.Errorf("a contract record: the closures ran the chat-only pack (%d fallback to topdown)", n)
	}
	// Where it applies, the same conflict is met (the probe works).
	if _, err := ev.Evaluate(context.Background(), doc(document.Chat, `{`+msgs+`}`)); err == nil {
		t.Error("a chat record of two roles: no conflict error")
	}
	if n := RegoFallbacks(e); n != 1 {
		t.Errorf("a chat record of two roles: %d fallbacks to topdown, want 1", n)
	}
}
